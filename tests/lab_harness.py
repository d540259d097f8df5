"""Start JupyterLab and headless Chromium for the browser test, and stop exactly what was started.

Not a test module: ``tests/test_browser.py`` uses it. (It is not called ``jupyter_server.py``:
tests/ is on ``sys.path`` under pytest, and that name would hide the real ``jupyter_server``.)

Why the care:

- The server starts the way ``make lab`` does — ``.venv/bin/jupyter lab --ip=127.0.0.1`` with the
  repository layout as its root, so URLs are ``lab/tree/notebooks/NN_name.ipynb`` exactly as on
  Binder — but on a port the OS picks, with a random token, and with its own runtime, config, data,
  settings and workspace directories, so a learner's own JupyterLab (or a second test run) is
  neither seen nor disturbed. Its data dir hides any user-level kernel of the same name, so the
  kernel that runs is the course kernel registered by the Makefile in ``.venv`` (``--sys-prefix``).
- The server's root is a temporary copy of ``notebooks/`` (with every other top-level entry of the
  repository linked beside it): running a notebook in the browser makes it "dirty", and JupyterLab
  (autosave, RISE's "save before rendering") would otherwise write browser outputs over the stored,
  nbval-checked notebooks.
- Both processes are stopped by their own pids, in ``finally`` blocks, even when a test fails.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.prefix) / "bin"
CHROMIUM = Path("/usr/bin/chromium")  # Debian's (this machine, .ci/run installs it with apt)
# Launch flags for Chromium (Debian's or Playwright's) as root in a container: no sandbox (root cannot have one),
# no GPU, and nothing that phones home (QUIC, first-run, background networking, updates, sync).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# JupyterLab user settings for the test: no autosave (nothing to write), and every cell attached
# to the page so counting rendered cells is meaningful — "contentVisibility", JupyterLab 4's own
# default, pinned here (it attaches all cells and lets the browser skip painting offscreen ones;
# "full" windowing would attach only the visible cells). No news or update checks: that comes
# from the venv's own settings (jupyter-prefix/, as `make lab` has them), which the test checks.
LAB_SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "contentVisibility"},
}


def stop_pid(pid: int, *, grace: float = 10.0) -> None:
    """Stop one process we started, by pid: SIGTERM, wait, then SIGKILL. Its children too."""
    try:
        proc = psutil.Process(pid)
        children = proc.children(recursive=True)
    except psutil.NoSuchProcess:
        return
    for p in [proc, *children]:
        try:
            p.send_signal(signal.SIGTERM)
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs([proc, *children], timeout=grace)
    for p in alive:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=grace)


def served_copy(dest: Path, repo: Path = ROOT, *, outputs: bool = True) -> Path:
    """A root for the server: a real copy of notebooks/, links to everything else in the repo.

    With ``outputs=False`` the course notebooks are copied without their outputs: a test that
    runs every notebook clears them before it runs anyway, and drawing every stored picture and
    table once more on opening cost the browser about a second of CPU per notebook. A test of what
    a learner first sees keeps them (``outputs=True``): that is what the learner opens.
    """
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copytree(repo / "notebooks", dest / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for notebook in (dest / "notebooks").glob("[0-9][0-9]_*.ipynb") if not outputs else ():
        nb = json.loads(notebook.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                cell["outputs"], cell["execution_count"] = [], None
        notebook.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for entry in repo.iterdir():
        if entry.name not in {"notebooks", ".git", ".venv"}:
            (dest / entry.name).symlink_to(entry)
    return dest


@dataclass
class LabServer:
    """A running JupyterLab started by :func:`start_lab`; ``url`` has no token, ``token`` is separate."""

    proc: subprocess.Popen
    url: str
    token: str
    root: Path
    home: Path
    log: Path
    kernel_pids: set[int] = field(default_factory=set)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def api(self, path: str, method: str = "GET", body: dict | None = None):
        """Call the server's REST API with the token; returns the decoded JSON (or None)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"{self.url}api/{path}",
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
        return json.loads(raw) if raw else None

    def settings(self, plugin: str) -> dict:
        """JupyterLab's effective settings of one plugin: the schema's defaults (where overrides.json
        lands) with the user's own settings laid over them."""
        request = urllib.request.Request(
            f"{self.url}lab/api/settings/{plugin}", headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.loads(response.read())
        defaults = {k: v.get("default") for k, v in answer["schema"].get("properties", {}).items()}
        return {**defaults, **(answer.get("settings") or {})}

    def lab_url(self, path: str) -> str:
        return f"{self.url}lab/tree/{path}?reset&token={self.token}"

    def remember_kernels(self) -> None:
        """Note the kernel processes the server has started, so :meth:`stop` can check on them."""
        try:
            self.kernel_pids |= {c.pid for c in psutil.Process(self.pid).children(recursive=True)}
        except psutil.NoSuchProcess:
            pass

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """Ask the server to shut down (it stops its kernels), then make sure, by pid."""
        self.remember_kernels()
        try:
            self.api("shutdown", method="POST")
        except (urllib.error.URLError, OSError):
            pass
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            stop_pid(self.pid)
            self.proc.wait(timeout=15)
        for pid in sorted(self.kernel_pids):
            stop_pid(pid, grace=5)
        shutil.rmtree(self.home, ignore_errors=True)


def start_lab(
    timeout: float = 90.0, extra_env: dict[str, str] | None = None, *, outputs: bool = True
) -> LabServer:
    """Start ``jupyter lab`` from .venv like ``make lab`` does, isolated; wait until it answers.

    ``extra_env`` reaches the server and so every kernel it starts (the browser test uses it to
    run numpy's sort as another CPU does); ``outputs`` says whether the served notebooks keep
    their stored outputs (:func:`served_copy`).
    """
    jupyter = VENV_BIN / "jupyter"
    if not jupyter.exists():
        raise RuntimeError(f"{jupyter} is missing: run `make venv` first")
    home = Path(tempfile.mkdtemp(prefix="retrieval-lab-browser-"))
    root = served_copy(home / "root", outputs=outputs)
    dirs = {name: home / name for name in ("runtime", "config", "data", "settings", "workspaces")}
    for path in dirs.values():
        path.mkdir()
    for name, value in LAB_SETTINGS.items():
        target = dirs["settings"] / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(value), encoding="utf-8")
    (dirs["config"] / "jupyter_server_config.json").write_text(
        json.dumps(
            {
                "LabApp": {"expose_app_in_browser": True}
            }
        ),
        encoding="utf-8",
    )
    env = {
        key: value
        for key, value in os.environ.items()
        # The kernel must draw inline (the tests set MPLBACKEND=Agg) and see no pytest state.
        if key not in {"MPLBACKEND", "PYTEST_CURRENT_TEST", "JUPYTER_PATH", "JUPYTER_TOKEN"}
    }
    env.update(
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),
        JUPYTERLAB_SETTINGS_DIR=str(dirs["settings"]),
        JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]),
        PYDEVD_DISABLE_FILE_VALIDATION="1",
    )
    env.update(extra_env or {})
    token = secrets.token_hex(24)
    log = home / "server.log"
    command = [
        str(jupyter), "lab",
        "--ip=127.0.0.1", "--port=0", "--ServerApp.port_retries=0", "--no-browser",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
    ]
    if os.geteuid() == 0:
        command.append("--allow-root")  # as `make lab` does for root
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    deadline = time.monotonic() + timeout
    info_file = dirs["runtime"] / f"jpserver-{proc.pid}.json"
    server = None
    try:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            if info_file.exists():
                try:
                    info = json.loads(info_file.read_text(encoding="utf-8"))
                except json.JSONDecodeError:  # being written
                    info = None
                if info:
                    server = LabServer(proc, f"http://127.0.0.1:{info['port']}/", token, root, home, log)
                    try:
                        server.api("status")
                        return server
                    except (urllib.error.URLError, OSError):
                        pass
            time.sleep(0.2)
        raise RuntimeError(f"jupyter lab did not answer within {timeout:.0f} s:\n{log.read_text()[-3000:]}")
    except BaseException:
        if server is not None:
            server.stop()
        else:
            stop_pid(proc.pid)
            shutil.rmtree(home, ignore_errors=True)
        raise


@dataclass
class Browser:
    """Headless Chromium driven by Playwright, with the pid of its main process."""

    playwright: object
    context: object  # playwright BrowserContext (persistent, in our own fresh user-data dir)
    profile: Path
    pid: int | None

    def stop(self) -> None:
        """Close the browser, then make sure its process is gone, by pid; stop Playwright."""
        try:
            self.context.close()
        except Exception:
            pass
        if self.pid is not None:
            stop_pid(self.pid, grace=5)
        for pid in _profile_processes(self.profile):  # any helper process still using our profile
            stop_pid(pid, grace=5)
        try:
            self.playwright.stop()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


def _profile_processes(profile: Path) -> list[int]:
    """Pids of processes whose command line names our own (unique, temporary) profile dir."""
    marker = f"--user-data-dir={profile}"
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        try:
            if marker in (proc.info["cmdline"] or []):
                found.append(proc.info["pid"])
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def playwright_chromium() -> Path | None:
    """Playwright's own Chromium, when ``python -m playwright install chromium`` has put it here.

    That is how GitHub's Ubuntu runner gets a browser (.github/workflows/test.yml): there
    ``apt-get install chromium`` installs a snap wrapper, which Playwright cannot drive reliably.
    Headless, Playwright runs its ``chromium-headless-shell`` build when it is installed too.
    """
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as playwright:
        found = Path(playwright.chromium.executable_path)
    return found if found.exists() else None


def find_chromium() -> Path | None:
    """The browser the tests drive: Debian's ``/usr/bin/chromium`` when it is installed (this
    machine, ``.ci/run``), else Playwright's own (GitHub), else None (the browser tests skip,
    or fail where ``RETRIEVAL_LAB_REQUIRE_BROWSER=1``)."""
    return CHROMIUM if CHROMIUM.exists() else playwright_chromium()


def start_browser(viewport: tuple[int, int] = (1280, 1000)) -> Browser:
    """Launch Chromium headless through Playwright: Debian's /usr/bin/chromium when it exists,
    else the one ``python -m playwright install chromium`` installed (see :func:`find_chromium`)."""
    from playwright.sync_api import sync_playwright

    profile = Path(tempfile.mkdtemp(prefix="retrieval-lab-chromium-"))
    playwright = sync_playwright().start()
    try:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            # None: Playwright's own build (chromium-headless-shell when headless)
            executable_path=str(CHROMIUM) if CHROMIUM.exists() else None,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": viewport[0], "height": viewport[1]},
            reduced_motion="reduce",
        )
    except BaseException:
        for pid in _profile_processes(profile):
            stop_pid(pid, grace=5)
        playwright.stop()
        shutil.rmtree(profile, ignore_errors=True)
        raise
    main = [
        pid for pid in _profile_processes(profile)
        if not any(arg.startswith("--type=") for arg in psutil.Process(pid).cmdline())
    ]
    return Browser(playwright, context, profile, main[0] if main else None)


if __name__ == "__main__":
    # `python tests/lab_harness.py`: print the browser the tests would drive; exit 1 when there is
    # none (`make test-browser` then runs the other-CPU nbval pass the browser test would have made).
    browser = find_chromium()
    print(browser or "no Chromium: neither /usr/bin/chromium nor Playwright's own")
    raise SystemExit(0 if browser else 1)
