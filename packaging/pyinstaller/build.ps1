# Builds the one-folder application into packaging\pyinstaller\dist\amdahl-desk (Windows).
#   powershell -ExecutionPolicy Bypass -File packaging\pyinstaller\build.ps1 [-Python python]
param([string]$Python = "python")
$ErrorActionPreference = "Stop"
Set-Location $PSScriptRoot
& $Python -m pip install -q "pyinstaller>=6.10,<7"
& $Python -m PyInstaller --noconfirm --clean --log-level WARN amdahl-desk.spec
Write-Host "Built $PSScriptRoot\dist\amdahl-desk\amdahl-desk.exe"
