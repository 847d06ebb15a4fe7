"""tmasim from Python: the timing model of Hopper's TMA and banked shared memory (docs/python.md).

    import tmasim
    stats = tmasim.run("examples/gemm_pipeline.json", set={"STAGES": 3})   # the --stats dict
    print(stats["cycles"], stats["bottleneck"]["verdict"])
    df = tmasim.sweep("examples/gemm_pipeline.json", {"STAGES": [2, 4], "smem.banks": [32, 64]})
    df = tmasim.sweep(..., client=dask.distributed.Client(address))         # on a Dask cluster

Each call runs the `tmasim` command's own code in this process (simulations in forked children),
so every answer is the command's: the same statistics, the same errors (TmasimError with the
command's message and exit status)."""
import contextlib
import itertools
import json
import os
import tempfile
import threading

from . import _tmasim

__all__ = ["run", "compare", "explain", "conflicts", "sweep", "cli", "version", "TmasimError"]
_lock = threading.Lock()  # one command at a time in a process (its state is the process's)


class TmasimError(RuntimeError):
    """A command that failed: `status` its exit status (1 a check failed, 2 bad input), the message
    what it wrote on standard error."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


def version():
    """The tmasim built (git describe)."""
    return _tmasim.version()


@contextlib.contextmanager
def _captured(fd):
    """The file descriptor `fd` redirected to a temporary file for the duration; yields a callable
    returning what was written."""
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        saved = os.dup(fd)
        os.dup2(tmp.fileno(), fd)
        out = []
        try:
            yield lambda: b"".join(out).decode("utf-8", "replace")
        finally:
            os.dup2(saved, fd)
            os.close(saved)
            tmp.seek(0)
            out.append(tmp.read())


def cli(*args, quiet=False):
    """Runs `tmasim ARGS...` in this process and returns (exit status, standard output, standard
    error); with quiet=False the output also reaches this process's own."""
    args = [str(a) for a in args]
    with _lock, _captured(1) as stdout, _captured(2) as stderr:
        status = _tmasim.main(args)
    out, err = stdout(), stderr()
    if not quiet:
        os.write(1, out.encode())
        os.write(2, err.encode())
    return status, out, err


def _checked(*args, ok=(0,)):
    status, out, err = cli(*args, quiet=True)
    if status not in ok:
        message = err.strip().splitlines()[-1] if err.strip() else f"tmasim {args[0]} exited with {status}"
        raise TmasimError(message, status)
    return out


def _settings(values):
    """--set arguments from {"STAGES": 3, "smem.banks": 64} or ["STAGES=3", ...]."""
    if values is None:
        return []
    items = values.items() if isinstance(values, dict) else (s.split("=", 1) for s in values)
    out = []
    for key, value in items:
        out += ["--set", f"{key}={value}"]
    return out


@contextlib.contextmanager
def _scenario_path(scenario):
    """A scenario as a path: a path as given, a dict written to a temporary file, None the built-in one."""
    if scenario is None or isinstance(scenario, (str, os.PathLike)):
        yield [] if scenario is None else [os.fspath(scenario)]
        return
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(scenario, f)
    try:
        yield [f.name]
    finally:
        os.unlink(f.name)


def _config(config):
    return [] if config is None else ["--config", os.fspath(config)]


def run(scenario=None, config=None, set=None, l2="cold", timing_only=True, trace=None, vcd=None):
    """Simulates a scenario (a path, a dict of scenario JSON, or None for the built-in GEMM feed) and
    returns its statistics, the dict `tmasim run --stats` writes (docs/outputs.md): "cycles",
    "microseconds", "bottleneck", "params", "config", ...; `set` overrides params and configuration
    keys ({"STAGES": 3, "smem.banks": 64}); trace / vcd: paths to write those too."""
    with _scenario_path(scenario) as path, tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        args = ["run", *path, "--stats", stats, "--l2", l2, *_config(config), *_settings(set)]
        args += ["--timing-only"] if timing_only else []
        args += ["--trace", os.fspath(trace)] if trace else []
        args += ["--vcd", os.fspath(vcd)] if vcd else []
        _checked(*args)
        with open(stats) as f:
            return json.load(f)


def compare(scenarios, results=None, l2="cold", clock="config", split="all", config=None, jobs=None):
    """The model against H100 runs (`tmasim compare`): a pandas.DataFrame, one row per scenario
    (the --csv columns). A scenario outside the tolerance is a row, not an error."""
    import pandas
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "compare.csv")
        args = ["compare", os.fspath(scenarios)] + ([os.fspath(results)] if results else [])
        args += ["--l2", l2, "--clock", clock, "--split", split, "--csv", csv, *_config(config)]
        args += ["--jobs", str(jobs)] if jobs else []
        _checked(*args, ok=(0, 1))
        return pandas.read_csv(csv)


def explain(**options):
    """`tmasim explain` (where a TMA operation's bytes land in shared memory): options as its flags,
    dims=[64, 64] for --dims 64,64; returns the report text."""
    args = ["explain"]
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif value is not None and value is not False:
            args += [flag, ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)]
    return _checked(*args)


def conflicts(**options):
    """`tmasim conflicts` for one access (rows, cols, dtype, swizzle, access, banks, ...: its flags):
    the dict of its --json answer (schema tmasim-conflicts/1)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "conflicts.json")
        args = ["conflicts", "--json", out]
        for key, value in options.items():
            args += ["--" + key.replace("_", "-"), str(value)]
        _checked(*args)
        with open(out) as f:
            return json.load(f)


def _points(settings):
    keys = list(settings)
    return keys, list(itertools.product(*[[str(v) for v in settings[k]] for k in keys]))


def _sweep_table(scenario_args, settings, config, jobs, tmp):
    """The command's sweep: its CSV, as text."""
    prefix = os.path.join(tmp, "sweep")
    args = ["sweep", *scenario_args, "-o", prefix, "--no-plot", *_config(config)]
    for key, values in settings.items():
        args += ["--set", f"{key}=" + ",".join(str(v) for v in values)]
    args += ["--jobs", str(jobs)] if jobs else []
    _checked(*args, ok=(0, 1))  # 1: some points failed; their rows say why
    with open(prefix + ".csv") as f:
        return f.read()


def _sweep_point(scenario, point, config):
    """One point of a sweep, as the command's sweep writes it (a header and one row): what a Dask
    worker runs."""
    with _scenario_path(scenario) as path, tempfile.TemporaryDirectory() as tmp:
        return _sweep_table(path, {k: [v] for k, v in point}, config, 1, tmp)


def sweep_csv(scenario, settings, config=None, client=None):
    """The sweep's CSV text, its points run on a Dask client's workers (`tmasim sweep --dask`): the
    header once, then each point's row in the local sweep's order."""
    if isinstance(scenario, (str, os.PathLike)):  # the workers read the scenario, not the file
        with open(scenario) as f:
            scenario = json.load(f)
    keys, points = _points(settings)
    futures = client.map(_sweep_point, [scenario] * len(points), [list(zip(keys, p)) for p in points],
                         [None if config is None else os.fspath(config)] * len(points), pure=False)
    tables = client.gather(futures)
    return tables[0].splitlines(keepends=True)[0] + "".join(t.splitlines(keepends=True)[1] for t in tables)


def sweep(scenario=None, settings=None, config=None, client=None, jobs=None):
    """Runs a scenario over the cross product of `settings` ({"STAGES": [2, 4], "smem.banks": [32, 64]}),
    the last key varying fastest, and returns a pandas.DataFrame with the rows `tmasim sweep` writes.
    client: a dask.distributed.Client; the points then run on its workers (each a one-point sweep of
    the same command), and the rows come back in the same order as the local sweep's."""
    import io
    import pandas
    if not settings:
        raise TmasimError("nothing to sweep: give settings={'KEY': [V1, V2, ...]}", 2)
    if client is None:
        with _scenario_path(scenario) as path, tempfile.TemporaryDirectory() as tmp:
            return pandas.read_csv(io.StringIO(_sweep_table(path, settings, config, jobs, tmp)))
    return pandas.read_csv(io.StringIO(sweep_csv(scenario, settings, config, client)))
