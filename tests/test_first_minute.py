"""The first minute of a learner: `make lab`'s link opens notebook 00, one kernel, no news toast.

The browser test checks the running server (tests/test_browser.py: one kernelspec, news off);
these check the pieces without a browser, so they run everywhere.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PREFIX = ROOT / "jupyter-prefix"


def _installer():
    spec = importlib.util.spec_from_file_location("jupyter_prefix_install", PREFIX / "install.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_lab_prints_a_link_to_notebook_00():
    recipe = re.search(r"^lab: .*?(?=^\S)", (ROOT / "Makefile").read_text(), re.S | re.M).group(0)
    url = re.search(r"--LabApp\.default_url=/lab/tree/(\S+)", recipe).group(1)
    assert (ROOT / url).is_file() and url == "notebooks/00_the_pipeline.ipynb"
    assert "jupyter-prefix/install.py" in recipe


def test_the_settings_offer_one_kernel_and_ask_no_news_question():
    server = json.loads((PREFIX / "etc/jupyter/jupyter_server_config.json").read_text())
    assert server["KernelSpecManager"]["allowed_kernelspecs"] == ["retrieval-lab"]
    overrides = json.loads((PREFIX / "share/jupyter/lab/settings/overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


def test_install_merges_into_an_image_s_own_settings(tmp_path):
    target = tmp_path / "etc/jupyter/jupyter_server_config.json"
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps({"ServerApp": {"ip": "0.0.0.0"}, "KernelSpecManager": {"x": 1}}))
    written = _installer().install(tmp_path)
    assert len(written) == len(list(PREFIX.rglob("*.json"))) == 3
    merged = json.loads(target.read_text())
    assert merged["ServerApp"] == {"ip": "0.0.0.0"}  # the image's own setting is kept
    assert merged["KernelSpecManager"]["x"] == 1
    assert merged["KernelSpecManager"]["allowed_kernelspecs"] == ["retrieval-lab"]


def test_venv_and_binder_install_the_same_settings():
    assert "python jupyter-prefix/install.py" in (ROOT / "binder/postBuild").read_text()
    stamp = re.search(r"^\$\(STAMP\):.*?(?=^\S)", (ROOT / "Makefile").read_text(), re.S | re.M).group(0)
    assert "tools/venv.sh" in stamp  # make venv's one recipe, shared with the canary
    assert "jupyter-prefix/install.py" in (ROOT / "tools" / "venv.sh").read_text()


def test_alt_r_cannot_save_a_notebook_without_asking():
    """RISE's Alt+R renders live slides after saving the notebook without asking: switched off."""
    overrides = json.loads((PREFIX / "share/jupyter/lab/settings/overrides.json").read_text())
    shortcuts = overrides["@jupyterlab/shortcuts-extension:shortcuts"]["shortcuts"]
    assert {"command": "RISE:preview", "keys": ["Alt R"], "selector": ".jp-Notebook:focus",
            "disabled": True} in shortcuts


_COLAB_BADGE = re.compile(r"colab\.research\.google\.com/github/[^/]+/[^/]+/blob/([^/]+)/notebooks/")
_COLAB_INSTALL = re.compile(r'source = "git\+https://github\.com/[^/"]+/[^@"]+@([^"]+)"')


def test_each_colab_cell_installs_the_release_its_badge_opens():
    """A notebook opened from a tag's Colab badge must install that tag's package, not main's."""
    import nbformat

    from tools.links import COLAB_TAG
    from tools.nbtools import course_notebooks

    for path in course_notebooks():
        cells = nbformat.read(path, as_version=4).cells
        badge = _COLAB_BADGE.search(cells[0].source)
        setup = next((c for c in cells if COLAB_TAG in c.metadata.get("tags", [])), None)
        install = _COLAB_INSTALL.search(setup.source) if setup else None
        assert badge and install, f"{path.name}: no Colab badge or no install line in the set-up cell"
        assert install.group(1) == badge.group(1), (
            f"{path.name}: the Colab badge opens {badge.group(1)}, its set-up cell installs "
            f"{install.group(1)}: run `python -m tools.links write`"
        )


def test_conda_users_get_the_course_kernel():
    """The conda route registers "Python 3 (retrieval-lab)", as make venv and Binder do, in the
    README and the instructor guide alike (else JupyterLab meets them with a kernel picker)."""
    from tools.instructor_guide import CONDA_ROUTE

    assert '--name retrieval-lab --display-name "Python 3 (retrieval-lab)"' in CONDA_ROUTE
    assert "jupyter-prefix/install.py" in CONDA_ROUTE
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert CONDA_ROUTE in readme, "README.md's conda route is not the guide's (tools/instructor_guide.py)"
    assert CONDA_ROUTE in (ROOT / "docs/instructor-guide.md").read_text(encoding="utf-8")


def test_a_notebook_opens_unmodified_on_any_python():
    """JupyterLab writes the kernel's language_info into a notebook it opens; one that differs from
    the stored one marks the notebook modified before anything is touched. The course kernel
    reports it without the patch version, and `make execute` stores it as the kernel sent it."""
    from tools.nbtools import normalise

    config = json.loads((PREFIX / "etc/ipython/ipython_kernel_config.json").read_text())
    (line,) = config["IPKernelApp"]["exec_lines"]
    assert "language_info" in line and "'version'" in line
    import nbformat

    sent = {"name": "python", "mimetype": "text/x-python", "codemirror_mode": {"name": "ipython", "version": 3},
            "pygments_lexer": "ipython3", "nbconvert_exporter": "python", "file_extension": ".py"}
    nb = nbformat.v4.new_notebook(metadata={"language_info": dict(sent)})
    normalise(nb)
    assert nb.metadata["language_info"] == sent, "make execute must store the kernel's language_info as sent"
