"""Getting onto a desktop: the desktop entry, its install scripts, the wheel and the bundled application."""

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"


@pytest.fixture
def fake_exe(tmp_path):
    exe = tmp_path / "bin" / "amdahl-desk"
    exe.parent.mkdir()
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    return exe


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils not installed")
def test_desktop_entry_validates(tmp_path, fake_exe):
    entry = tmp_path / "amdahl-desk.desktop"
    entry.write_text((LINUX / "amdahl-desk.desktop.in").read_text().replace("@EXEC@", str(fake_exe)))
    proc = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr


def test_install_and_uninstall_for_the_current_user(tmp_path, fake_exe):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "share"), HOME=str(tmp_path))
    proc = subprocess.run(["bash", str(LINUX / "install.sh"), str(fake_exe)], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    entry = (tmp_path / "share" / "applications" / "amdahl-desk.desktop").read_text()
    assert f"Exec={fake_exe} %f" in entry and "Icon=amdahl-desk" in entry
    # offered under "Open with" for workbooks, never made the default for them
    assert "MimeType=application/vnd.openxmlformats-officedocument.spreadsheetml.sheet;text/csv;" in entry
    assert not (tmp_path / "share" / "applications" / "mimeapps.list").exists()
    icons = tmp_path / "share" / "icons" / "hicolor"
    for size in (16, 32, 48, 128, 256, 512):
        assert (icons / f"{size}x{size}" / "apps" / "amdahl-desk.png").exists()
    assert (icons / "scalable" / "apps" / "amdahl-desk.svg").exists()
    proc = subprocess.run(["bash", str(LINUX / "uninstall.sh")], capture_output=True, text=True, env=env)
    assert proc.returncode == 0
    assert not (tmp_path / "share" / "applications" / "amdahl-desk.desktop").exists()
    assert not list(icons.glob("*/apps/amdahl-desk.*"))


@pytest.mark.gui  # reads the icons with Qt's QImage
def test_icons_at_every_size():
    from PySide6.QtGui import QImage

    icons = ROOT / "resources" / "icons"
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        image = QImage(str(icons / f"amdahl-desk-{size}.png"))
        assert (image.width(), image.height()) == (size, size)


@pytest.mark.slow
def test_wheel_carries_resources_and_works_outside_the_source_tree(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    wheel = next(wheels.glob("amdahl_desk-*.whl"))
    env_dir = tmp_path / "fresh"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    # The dependencies come from this test run's environment; Amdahl Desk itself only from the wheel.
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    deps = [p for p in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()}]
    Path(purelib, "test-deps.pth").write_text("\n".join(deps) + "\n")
    code = (
        "import amdahl_desk, sys; from amdahl_desk.resources import example_path; "
        "print(amdahl_desk.__file__); print(example_path('llm-request.xlsx'))"
    )
    out = subprocess.run(
        [str(python), "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": ""},
    ).stdout.split("\n")
    assert out[0].startswith(str(env_dir)) and out[1].startswith(str(env_dir))
    proc = subprocess.run(
        [str(env_dir / "bin" / "amdahl-desk"), "report", out[1], "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["combined"]["overall_speedup"] == 1.4285714285714286


@pytest.mark.slow
@pytest.mark.gui  # starts the bundled window and reads its screenshot with Qt
def test_bundled_application_builds_and_starts(tmp_path):
    pytest.importorskip("PyInstaller")
    env = dict(os.environ, DIST=str(tmp_path / "dist"), WORK=str(tmp_path / "build"))
    proc = subprocess.run(
        ["bash", str(ROOT / "packaging" / "pyinstaller" / "build.sh"), sys.executable],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    program = tmp_path / "dist" / "amdahl-desk" / "amdahl-desk"
    # Register it as a desktop would, then start it the way the menu does: the entry's Exec line.
    home = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "share"), HOME=str(tmp_path))
    subprocess.run(["bash", str(LINUX / "install.sh"), str(program)], check=True, capture_output=True, env=home)
    entry = (tmp_path / "share" / "applications" / "amdahl-desk.desktop").read_text()
    exec_line = next(line for line in entry.splitlines() if line.startswith("Exec="))[len("Exec=") :]
    shot = tmp_path / "shot.png"
    argv = [arg for arg in exec_line.split() if arg != "%f"] + ["--screenshot", str(shot), "--size", "1280x800"]
    assert argv[0] == str(program)
    run = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        timeout=120,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    from PySide6.QtGui import QImage

    assert QImage(str(shot)).width() == 1280


def test_every_package_of_the_source_tree_is_in_the_wheel_list():
    """A new room (ui/<capability>/) left out of [tool.setuptools] packages would be missing from the wheel."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "amdahl_desk").rglob("__init__.py")}
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
