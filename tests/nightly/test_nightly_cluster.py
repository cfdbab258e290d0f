"""nightly on a Dask cluster: same statuses as a local run, faults that cost nothing, clear refusals."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time

import pytest

# The cluster extra (pip install -e '.[cluster]') is optional: without it these tests skip, with the reason.
distributed = pytest.importorskip("distributed", reason="needs dask.distributed: pip install -e '.[cluster]'")

from asc_harness.batch import remote  # noqa: E402
from asc_harness.store.evidence_read import load_record  # noqa: E402
from nightly_helpers import PLATFORM, PYTHON, git, kernel_source, make_repo, run_nightly  # noqa: F401,E402 - fixtures

SLOW_BODY = "    import time\n    time.sleep(2.0)\n    return np.abs(x)"


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes (each under a nanny that restarts it when it dies) and a client."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as lc, distributed.Client(lc) as client:
        yield lc, client


def statuses(repo) -> dict[str, str]:
    out = {}
    for path in repo.records():
        rec = load_record(path)
        assert rec["cell"] not in out, f"{rec['cell']} recorded twice"
        out[rec["cell"]] = rec["status"]
    return out


def test_cluster_nightly_records_the_statuses_of_a_local_run(make_repo, run_nightly):
    cells = {"abs": "good", "neg": "wrong", "crash": "crash", "sq": "none"}
    local, dask_run = make_repo(cells), make_repo(cells)
    code_local, out, err = run_nightly(*local.args("-n", "0", "--no-dashboard"))
    assert code_local == 1, out + err
    code, out, err = run_nightly(*dask_run.args("--scheduler", "local:2", "--no-dashboard"))
    assert code == code_local, out + err
    assert statuses(dask_run) == statuses(local) == {
        f"abs/float16/{PLATFORM}": "pass", f"neg/float16/{PLATFORM}": "fail", f"crash/float16/{PLATFORM}": "error"}
    for op in ("abs", "neg", "crash"):
        assert dask_run.cell(op)["golden_status"] == local.cell(op)["golden_status"]
        rec = load_record(dask_run.records(op)[0])
        assert rec["kernel"] == f"golden/kernels/{op}_f16.py"  # repository-relative, as a local record
        worker = rec["provenance"]["worker"]
        assert worker["name"] in ("0", "1") and worker["host"] == socket.gethostname()
        assert worker["task"].endswith(f"/{op}/float16/{PLATFORM}")
        assert rec["provenance"]["harness_commit"] == git(dask_run.root, "rev-parse", "HEAD").strip()
        assert "worker" not in load_record(local.records(op)[0])["provenance"]
    assert "cluster: tcp://" in out and "ran 3 of 3 cell(s): 1 passed, 1 failed, 1 error" in out


def test_a_worker_killed_mid_run_loses_nothing(make_repo, cluster):
    lc, client = cluster
    repo = make_repo({"abs": "good", "neg": "good", "sq": "good"})
    for op in repo.ops:
        repo.write_golden(op, kernel_source(op, "good").replace("    return np.abs(x)\n\n\ndef reference",
                                                                SLOW_BODY + "\n\n\ndef reference", 1))
    repo.commit("slow kernels")
    proc = subprocess.Popen([PYTHON, "-m", "asc_harness.nightly", *repo.args("--scheduler", lc.scheduler_address,
                                                                              "--no-dashboard")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        victim = None
        for _ in range(600):  # wait until a cell is running on a worker, then SIGKILL that worker
            busy = [addr for addr, keys in client.processing().items() if keys]
            if busy:
                victim = busy[0]
                break
            time.sleep(0.05)
        assert victim is not None, "no cell ever started"
        pid = client.run(os.getpid, workers=[victim])[victim]
        os.kill(pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=240)
    finally:
        proc.kill()
    assert proc.returncode == 0, out + err
    assert statuses(repo) == {f"{op}/float16/{PLATFORM}": "pass" for op in repo.ops}
    for path in repo.records():
        worker = load_record(path)["provenance"]["worker"]
        assert worker["name"] and worker["host"] and worker["task"]
    state = json.loads((repo.root / ".nightly" / "state.json").read_text())
    assert state["phase"] == "done" and len(state["results"]) == 3


def test_a_result_delivered_twice_is_recorded_once_and_a_failing_task_is_retried_a_bounded_number_of_times(
        make_repo, cluster):
    from rich.console import Console

    from asc_harness.batch.cluster import Cluster

    lc, _client = cluster
    repo = make_repo({"abs": "good"})
    cell = repo.cell("abs")
    task = {"id": "run-1/abs", "cell": cell, "source": (repo.root / cell["golden"]).read_text(),
            "options": {"engine": "embedded", "backend": "Model", "timeout_s": 60.0, "memory_mb": 0, "quick": True},
            "versions": remote.versions()}
    broken = dict(task, id="run-1/broken", options={**task["options"], "bogus": 1})  # raises on the worker, always
    received = []
    with open(os.devnull, "w") as sink, Cluster(lc.scheduler_address, engine="embedded", console=Console(file=sink),
                                                retries=1) as cl:
        stats = cl.run(remote.run_cell_task, [task, dict(task), broken], lambda t, r: received.append(r),
                       label=lambda t: t["id"])
    assert sorted(r["id"] for r in received) == ["run-1/abs", "run-1/broken"]  # each task id once
    assert stats["duplicates"] == 1 and stats["resubmitted"] == 1
    good = next(r for r in received if r["id"] == "run-1/abs")
    assert good["record"]["status"] == "pass" and good["record"]["provenance"]["worker"]["task"] == "run-1/abs"
    lost = next(r for r in received if r["id"] == "run-1/broken")
    assert lost["lost"] == "the run was lost 2 time(s): HarnessError: unknown run option(s): bogus"


def test_workers_of_another_version_are_refused(make_repo, run_nightly, cluster, monkeypatch):
    lc, _client = cluster
    repo = make_repo({"abs": "good"})
    other = dict(remote.versions("embedded"), engine="embedded 0.0.9 (compiler 000000000000)")
    monkeypatch.setitem(remote._versions_cache, "embedded", other)
    code, out, err = run_nightly(*repo.args("--scheduler", lc.scheduler_address, "--no-dashboard"))
    assert code == 2, out + err
    assert "refusing workers whose harness or engine differs" in err and "compiler 000000000000" in err
    assert not repo.records() and not (repo.root / ".nightly" / "state.json").exists()


def test_an_unreachable_scheduler_exits_2_before_writing_anything(make_repo, run_nightly):
    repo = make_repo({"abs": "good"})
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    before = repo.cap.read_text()
    code, out, err = run_nightly(*repo.args("--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout", "1"))
    assert code == 2
    assert err.strip() == (f"nightly: error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: Timed out "
                           f"trying to connect to tcp://127.0.0.1:{port} after 1 s (start one with `dask scheduler`, "
                           "or use --scheduler local:N)")
    assert not (repo.root / ".nightly").exists() and not repo.records() and repo.cap.read_text() == before
    code, out, err = run_nightly(*repo.args("--scheduler", "local:0"))
    assert code == 2 and "local:N needs N >= 1" in err


def test_a_killed_coordinator_resumes_with_the_cells_not_yet_recorded(make_repo, run_nightly, cluster):
    lc, _client = cluster
    repo = make_repo({"abs": "good", "neg": "good", "sq": "good"})
    for op in repo.ops:
        repo.write_golden(op, kernel_source(op, "good").replace("    return np.abs(x)\n\n\ndef reference",
                                                                SLOW_BODY + "\n\n\ndef reference", 1))
    repo.commit("slow kernels")
    state_path = repo.root / ".nightly" / "state.json"
    proc = subprocess.Popen([PYTHON, "-m", "asc_harness.nightly", *repo.args("--scheduler", lc.scheduler_address,
                                                                              "--no-dashboard")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(1200):  # kill the coordinator once it has recorded a cell
            if state_path.exists() and json.loads(state_path.read_text() or "{}").get("results"):
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        proc.kill()
    # A cell is done once its result marker is written; the kill may land before the state file lists it.
    state = json.loads(state_path.read_text())
    markers = {json.loads(p.read_text())["cell"] for p in (repo.root / ".nightly" / "results").glob("*.json")}
    done_before = set(state["results"]) | (markers & set(state["plan"]))
    assert 1 <= len(done_before) < 3
    code, out, err = run_nightly(*repo.args("--resume", "--scheduler", lc.scheduler_address, "--no-dashboard"))
    assert code == 0, out + err
    assert f"{len(done_before)} of 3 cell(s) already done, {3 - len(done_before)} to run" in out
    assert statuses(repo) == {f"{op}/float16/{PLATFORM}": "pass" for op in repo.ops}  # each cell recorded once
    assert repo.cell("sq")["golden_status"] == "confirmed"


def test_generate_attempts_run_on_workers_and_are_written_here(make_repo, cluster, monkeypatch, capsys):
    import shlex

    from asc_harness import generate
    from nightly_helpers import AGENT

    lc, _client = cluster
    repo = make_repo({"abs": "good"})
    monkeypatch.setenv("SCRIPTED_BEHAVIOUR", "good")
    template = f"{shlex.quote(PYTHON)} {shlex.quote(str(AGENT))} {{prompt_file}} {{workspace}}"
    code = generate.main(repo.args("--agent-command", template, "--attempts", "2", "--agent-env", "SCRIPTED_BEHAVIOUR",
                                   "--allow-host-only", "--no-dashboard", "--scheduler", lc.scheduler_address))
    out, err = capsys.readouterr()
    assert code == 0, out + err
    recs = [load_record(p) for p in repo.records("abs", kind="generative")]
    assert sorted(r["generative"]["attempt"] for r in recs) == [1, 2]
    for rec in recs:
        assert rec["status"] == "pass"
        assert rec["provenance"]["worker"]["task"].endswith(f"/abs/float16/{PLATFORM}#{rec['generative']['attempt']}")
        kernel = repo.root / rec["kernel"]  # the artifact the worker produced, written here
        assert rec["kernel"].startswith(f"evidence/abs/float16/{PLATFORM}/artifacts/")
        assert kernel.read_text().startswith("import numpy as np") and rec["kernel_sha256"]
        assert rec["generative"]["agent_command"].startswith(shlex.quote(PYTHON))  # as on the coordinator
        assert "SCRIPTED_BEHAVIOUR" in rec["generative"]["agent_output"]  # the --agent-env value travelled
    assert repo.cell("abs")["generative_status"] == "confirmed"


def test_reference_kernels_run_as_tasks_of_their_own(make_repo, run_nightly):
    from test_nightly_run import _with_reference

    repo = make_repo({"abs": "good"})
    _with_reference(repo, "abs", "wrong")
    code, out, err = run_nightly(*repo.args("--scheduler", "local:2", "--no-dashboard"))
    assert code == 0, out + err                      # the failing reference is reported, not the cell's result
    (ref,) = repo.records("abs", kind="ascendc")
    rec = load_record(ref)
    assert rec["status"] == "fail" and rec["kernel"] == "golden/ascendc/abs_f16.py"
    assert rec["provenance"]["worker"]["task"].endswith(f"/abs/float16/{PLATFORM}/ascendc")
    assert repo.cell("abs")["golden_status"] == "confirmed"
    assert repo.cell("abs")["evidence"]["ascendc"] == ref.relative_to(repo.root).as_posix()
    assert "Ascend C references: 0 of 1 passed" in out
