# Jupyter Notebook settings of the credlab lab (read beside
# jupyter_notebook_config.json; see README.md in this folder).
#
# Every cell gets an id before the server signs a notebook it saves. The
# classic notebook (6.4) sends new cells without one; nbformat then adds an
# id while writing, after the signature was computed, and the notebook
# reopens "Not Trusted" with its SVG figures hidden.
from nbformat.corpus.words import generate_corpus_id


def credlab_cell_ids(model, **kwargs):
    """pre_save_hook: give every cell of a 4.5+ notebook a unique id."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    nb = model["content"]
    if (nb.get("nbformat", 0), nb.get("nbformat_minor", 0)) < (4, 5):
        return
    seen = set()
    for cell in nb.get("cells", []):
        cid = cell.get("id")
        while not cid or cid in seen:
            cid = generate_corpus_id()
        cell["id"] = cid
        seen.add(cid)


c = get_config()  # noqa: F821 (defined by Jupyter when it reads this file)
c.ContentsManager.pre_save_hook = credlab_cell_ids
