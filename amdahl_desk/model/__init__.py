"""The Qt-free model: profile, laws, analysis and report. Each name is imported from the module that holds it
(``amdahl_desk.model.profile``, ``.analysis``, ``.errors``, ``.units``…): the package itself loads nothing, so what
needs only the errors or the units (a file's container check, the command line's parser) starts without numpy."""
