"""Checks jupyter_notebook_config.py's pre-save hook (docker/ci.sh runs it in
the lab image): a notebook saved by the server with a cell that has no id
(as the classic notebook sends a new cell) reopens trusted with the hook and
untrusted without it. Exits 1 on a failure."""
import os, sys, tempfile, types, warnings

import nbformat
from notebook.services.contents.filemanager import FileContentsManager

warnings.simplefilter("ignore")
here = os.path.dirname(os.path.abspath(__file__))
ns = {"get_config": lambda: types.SimpleNamespace(ContentsManager=types.SimpleNamespace())}
exec(open(os.path.join(here, "jupyter_notebook_config.py")).read(), ns)


def saved_trusted(hook):
    d = tempfile.mkdtemp()
    cm = FileContentsManager(root_dir=d)
    cm.notary.db_file, cm.notary.secret_file = os.path.join(d, "sig.db"), os.path.join(d, "secret")
    if hook:
        cm.pre_save_hook = hook
    cell = {"cell_type": "code", "source": "fig", "metadata": {"trusted": True}, "execution_count": 1,
            "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"image/svg+xml": "<svg></svg>"}}]}
    cm.save({"type": "notebook", "content": dict(nbformat.v4.new_notebook(), cells=[cell, dict(cell)])}, "u.ipynb")
    nb = nbformat.read(os.path.join(d, "u.ipynb"), as_version=4)
    ids = [c.get("id") for c in nb.cells]
    return cm.notary.check_signature(nb) and len(set(ids)) == len(ids)


with_hook, without = saved_trusted(ns["credlab_cell_ids"]), saved_trusted(None)
print("check_cell_ids: a new cell saved with the hook reopens %s; without it %s"
      % ("trusted" if with_hook else "UNTRUSTED", "untrusted" if not without else "trusted (the check cannot fail)"))
sys.exit(0 if with_hook and not without else 1)
