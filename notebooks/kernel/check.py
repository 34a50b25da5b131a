"""Checks the notebook kernels the way a user meets them (notebooks/check-kernels).

1. A notebook saved outside the repository imports the library by module path.
2. Two credlab-go kernels importing at the same time both succeed.
3. A failed plugin build shows the compiler's message in the notebook.
4. Interrupting a running cell stops it (the credlab-go cell says so at once)
   and leaves the kernel alive with its state; GoNB stops within a second.
5. GoNB displays a viz figure and a frames table with one call each.
Run with JUPYTER_PATH set to the kernels' folder; exits 1 on a failure.
"""
import queue, sys, tempfile, threading, time

import nbformat
from jupyter_client.manager import start_new_kernel

IMPORT = 'import (\n\t"github.com/credlab/credlab/frames"\n\t"github.com/credlab/credlab/viz"\n)'
GONB_IMPORT = """import (
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
	"github.com/janpfeifer/gonb/gonbui"
)"""
GONB_SHOW = """%%
fig, err := viz.Lines([]viz.Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 3}}}, viz.Options{})
if err != nil {
	panic(err)
}
gonbui.DisplaySVG(fig.SVG())
df := dataframe.LoadRecords([][]string{{"x", "y"}, {"1", "2"}})
gonbui.DisplayHTML(frames.ShowTable(df).HTML())
gonbui.Sync()"""
failures = []


def check(ok, what):
    print("notebooks/check-kernels: %s: %s" % ("ok" if ok else "FAILED", what), flush=True)
    if not ok:
        failures.append(what)


def run(kc, code, timeout=600):
    """Executes code; returns (text of streams and errors, mime bundles, reply status)."""
    msg_id = kc.execute(code)
    text, data = [], []
    idle = False
    while True:
        try:
            # GoNB may publish a cell's last outputs just after its idle status.
            msg = kc.get_iopub_msg(timeout=3 if idle else timeout)
        except queue.Empty:
            if idle:
                break
            raise
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        t, c = msg["msg_type"], msg["content"]
        if t == "stream":
            text.append(c["text"])
        elif t == "error":
            text.append("%s: %s\n%s" % (c["ename"], c["evalue"], "\n".join(c.get("traceback", []))))
        elif t in ("display_data", "execute_result"):
            data.append(c["data"])
        elif t == "status" and c["execution_state"] == "idle":
            idle = True
    while True:
        reply = kc.get_shell_msg(timeout=timeout)
        if reply["parent_header"].get("msg_id") == msg_id:
            return "".join(text), data, reply["content"]["status"]


work = tempfile.mkdtemp(prefix="credlab-check-")
started = []


def kernel(name, cwd):
    km, kc = start_new_kernel(kernel_name=name, cwd=cwd, startup_timeout=600)
    started.append((km, kc))
    return km, kc


def main():
    # 1 and 2: two kernels, outside the repository, importing at once.
    kernels = [kernel("credlab-go", work) for _ in range(2)]
    results = [None, None]

    def first_import(i):
        try:
            results[i] = run(kernels[i][1], IMPORT)
        except Exception as e:
            results[i] = (repr(e), [], "exception")

    threads = [threading.Thread(target=first_import, args=(i,)) for i in range(2)]
    t0 = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, (text, _, status) in enumerate(results):
        check(status == "ok", "kernel %d of 2 imports github.com/credlab/credlab/frames while the other does (%.0f s)%s"
              % (i + 1, time.time() - t0, "" if status == "ok" else ":\n" + text[-2000:]))
    km, kc = kernels[0]
    text, data, status = run(kc, 'fig, err := viz.Lines([]viz.Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 3}}}, viz.Options{})\nfig')
    check(status == "ok" and any("image/svg+xml" in d for d in data), "a viz figure as a cell's value displays as SVG")

    # 4: interrupt a loop of one-second sleeps: the cell says at once that
    # the interrupt was received, stops within a few seconds (the
    # interpreter checks every 15 statements), and the kernel keeps its state.
    run(kc, "kept := 42")
    msg_id = kc.execute('import "time"\nfor i := 0; i < 30; i++ {\n\ttime.Sleep(time.Second)\n}')
    time.sleep(3)
    t0 = time.time()
    km.interrupt_kernel()
    said, stopped, err = None, None, ""
    while time.time() < t0 + 60 and stopped is None:
        try:
            msg = kc.get_iopub_msg(timeout=5)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        t, c = msg["msg_type"], msg["content"]
        if t == "stream" and "Interrupt received" in c["text"] and said is None:
            said = time.time() - t0
        elif t == "error":
            err = c["evalue"]
        elif t == "status" and c["execution_state"] == "idle":
            stopped = time.time() - t0
    check(said is not None and said < 1, "the cell shows that the interrupt was received (after %s s)" % (said if said is None else "%.2f" % said))
    check(stopped is not None and stopped < 8 and "interrupt" in err,
          "an interrupt stops a loop of sleeps in the credlab-go kernel (%s s, error %r)" % (stopped if stopped is None else "%.1f" % stopped, err))
    check(km.is_alive(), "the credlab-go kernel is alive after an interrupt")
    text, data, status = run(kc, "kept + 1")
    shown = " ".join(d.get("text/plain", "") for d in data)
    check(status == "ok" and "43" in shown, "the kernel keeps its state after an interrupt (kept + 1 = %s)" % (shown or text[-300:]))

    # 3: a failed plugin build shows the compiler's message. In a new kernel,
    # gota is imported beside the library in its first import block, as
    # notebooks/README.md says, so that its dependencies resolve to the
    # library's pinned versions (a kernel's later blocks fetch only what
    # they add).
    km3, kc3 = kernel("credlab-go", work)
    kernels.append((km3, kc3))
    text, _, status = run(kc3, 'import (\n\t"github.com/credlab/credlab/frames"\n\t"gonum.org/v1/gonum/mat"\n\t"github.com/go-gota/gota/dataframe"\n)')
    check(status == "error" and "redeclared" in text,
          "a failed plugin build shows the compiler's message (%s)" % ("redeclared" if "redeclared" in text else text[-600:]))
    for km_, kc_ in kernels:
        kc_.stop_channels()
        km_.shutdown_kernel(now=True)

    # 5: GoNB displays a figure and a table with one call each.
    km, kc = kernel("credlab-gonb", work)
    text, _, status = run(kc, GONB_IMPORT)
    check(status == "ok", "GoNB imports the library by module path" + ("" if status == "ok" else ":\n" + text[-1500:]))
    text, data, status = run(kc, GONB_SHOW)
    # gonbui sends an SVG as text/html (a <div> around the <svg>).
    check(status == "ok" and any("<svg" in d.get("text/html", "") for d in data) and any("<table" in d.get("text/html", "") for d in data),
          "GoNB displays a viz figure and a frames table (status %s, outputs %s)%s"
          % (status, [sorted(d) for d in data], "" if status == "ok" else ":\n" + text[-1500:]))
    # GoNB stops a running cell within a second.
    msg_id = kc.execute('%%\nfor i := 0; i < 30; i++ {\n\ttime.Sleep(time.Second)\n}')
    time.sleep(6)  # past the compilation
    t0 = time.time()
    km.interrupt_kernel()
    stopped = None
    while time.time() < t0 + 60 and stopped is None:
        try:
            msg = kc.get_iopub_msg(timeout=5)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "status" \
                and msg["content"]["execution_state"] == "idle":
            stopped = time.time() - t0
    check(stopped is not None and stopped < 1.5, "an interrupt stops a running GoNB cell (%s s)" % (stopped if stopped is None else "%.2f" % stopped))
    kc.stop_channels()
    km.shutdown_kernel(now=True)

try:
    main()
finally:
    for km, kc in started:
        try:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
        except Exception:
            pass
sys.exit(1 if failures else 0)
