"""The scopa-bot command as a user runs it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_simulate_is_deterministic_and_writes_valid_records(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--variant", "scopa", "--players", "4", "--teams", "--games", "5",
            "--seed", "42", "--rule", "napola=on"]
    assert main([*args, "--records", str(tmp_path / "a.jsonl")]) == 0
    first = capsys.readouterr().out
    assert main([*args, "--records", str(tmp_path / "b.jsonl")]) == 0
    assert capsys.readouterr().out == first
    a = (tmp_path / "a.jsonl").read_text()
    assert a == (tmp_path / "b.jsonl").read_text()
    records = [json.loads(line) for line in a.splitlines()]
    assert len(records) == 5
    assert all(r["format"] == "scopa-record/1" and r["teams"] == [[0, 2], [1, 3]] for r in records)
    assert all(r["rules"]["napola"] is True and r["winner"] in (0, 1) for r in records)
    assert "scope per round" in first and "napola" in first


def test_simulate_rejects_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rule", "target=lots", "--games", "1"]) == 2
    assert "target" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--variant", "briscola", "--games", "1"])
    assert exit_.value.code == 2
    assert "unknown variant 'briscola'; variants: scopa, scopone" in capsys.readouterr().err
    for command in (["simulate", "--games", "1"], ["arena", "--a", "easy", "--b", "easy", "--deals", "1"]):
        assert main([*command, "--rule", "napola"]) == 2
        assert "key=value, not 'napola'" in capsys.readouterr().err


def test_play_refuses_options_that_make_no_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "p.db")
    assert main(["play", "--db", db, "--lang", "en", "--rule", "colour=red"]) == 2
    assert "unknown rule option 'colour'" in capsys.readouterr().err
    assert main(["play", "--db", db, "--lang", "en", "--variant", "scopone", "--players", "2"]) == 2
    assert "4 players" in capsys.readouterr().err
    assert main(["play", "--db", db, "--rule", "napola"]) == 2


def test_run_without_tokens_explains_how_to_get_one(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("TELEGRAM_TOKEN", "DISCORD_TOKEN")}
    env["SCOPA_DB"] = str(tmp_path / "x.db")
    result = subprocess.run([sys.executable, "-m", "bot", "--lang", "en"], cwd=ROOT, env=env, input="",
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "BotFather" in result.stdout and "DISCORD_TOKEN" in result.stdout
    assert "./scripts/run play --help" in result.stdout and "scopa-bot play" not in result.stdout


def test_export_prints_stored_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from ..sessions_helpers import ALICE, BOB, CHAT, open_sessions, play_to_end

    async def play() -> None:
        sessions = await open_sessions(tmp_path / "e.db")
        await sessions.lobby.new_game(CHAT, ALICE)
        await sessions.lobby.join(CHAT, BOB)
        table = await sessions.lobby.start(CHAT, ALICE)
        await play_to_end(sessions, table.game_id, [ALICE, BOB])
        await sessions.close()

    asyncio.run(play())
    assert main(["export", "--db", str(tmp_path / "e.db")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["format"] == "scopa-record/1"
    assert main(["export", "--db", str(tmp_path / "missing.db")]) == 2


def test_scientifico_is_a_variant_on_the_command_line_as_in_chat(tmp_path: Path) -> None:
    for name in ("scientifico", "scopone-scientifico", "Scopone_Scientifico"):
        records = tmp_path / f"{name}.jsonl"
        assert main(["simulate", "--variant", name, "--players", "4", "--teams", "--games", "1",
                     "--records", str(records)]) == 0
        assert json.loads(records.read_text())["variant"] == "scopone_scientifico"


def help_of(*command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


def test_help_of_each_subcommand_lists_its_options_and_choices(capsys: pytest.CaptureFixture[str]) -> None:
    play = help_of("play", capsys=capsys)
    for word in ("scopa, scopone, scopone_scientifico, escoba", "scientifico", "{easy,medium,hard}",
                 "{it,en,es}", "round_limit", "ace_takes_all", "must_capture", "fuori", "Ctrl-C"):
        assert word in play
    assert "round_limit" in help_of("simulate", capsys=capsys)
    telegram = help_of("telegram", capsys=capsys)
    for name in ("TELEGRAM_TOKEN", "TELEGRAM_API_BASE", "TELEGRAM_WEBHOOK_URL", "TELEGRAM_LISTEN",
                 "SCOPA_DB"):
        assert name in telegram
    discord = help_of("discord", capsys=capsys)
    for name in ("DISCORD_TOKEN", "DISCORD_API_BASE", "SCOPA_DB"):
        assert name in discord
    arena = help_of("arena", capsys=capsys)
    assert "--deals" in arena and "greedy" in arena and "escoba" in arena
    assert "{it,en,es}" in help_of("run", capsys=capsys)
    review = help_of("review", capsys=capsys)
    assert "--searches" in review and "--match" in review and "{it,en,es}" in review


def test_the_language_is_chosen_without_a_subcommand_too(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("TELEGRAM_TOKEN", "DISCORD_TOKEN")}
    env["SCOPA_DB"] = str(tmp_path / "x.db")
    result = subprocess.run([sys.executable, "-m", "bot", "--lang", "it"], cwd=ROOT, env=env, input="",
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "scrivi a @BotFather" in result.stdout and "./scripts/run play --help" in result.stdout


def _own_terminal() -> None:
    """Make the pseudo-terminal on stdin the program's own, so Ctrl-C reaches it, with Ctrl-C's
    signal as a person's shell gives it: a suite started in the background (`cmd &` in a
    script) ignores SIGINT, and a program that starts with it ignored never sees Ctrl-C."""
    import fcntl
    import signal
    import termios

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """The bot run in a pseudo-terminal, read and typed into as a person would."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        import pty

        self.master, worker = pty.openpty()
        self.process = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "bot", *args],
                                        cwd=ROOT, env=env, stdin=worker, stdout=worker, stderr=worker,
                                        close_fds=True, start_new_session=True, preexec_fn=_own_terminal)
        os.close(worker)
        self.seen = ""

    def read_until(self, text: str, timeout: float = 60.0) -> str:
        import select

        while text not in self.seen:
            ready, _, _ = select.select([self.master], [], [], timeout)
            assert ready, f"waited {timeout} s for {text!r}; screen so far:\n{self.seen}"
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # the program ended
                chunk = b""
            if not chunk:
                raise AssertionError(f"ended before {text!r}; screen:\n{self.seen}")
            self.seen += chunk.decode("utf-8", "replace")
        return self.seen

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def finish(self, timeout: float = 60.0) -> int:
        """The program's exit code once it ends, reading what it prints meanwhile: a program
        whose output nobody reads blocks once the terminal's buffer is full."""
        import select
        import time

        ends = time.monotonic() + timeout
        while self.process.poll() is None:
            left = ends - time.monotonic()
            if left <= 0:
                self._dump_threads()
            assert left > 0, f"still running {timeout} s later; screen:\n{self.seen}"
            ready, _, _ = select.select([self.master], [], [], min(left, 0.2))
            if ready:
                with contextlib.suppress(OSError):
                    self.seen += os.read(self.master, 4096).decode("utf-8", "replace")
        with contextlib.suppress(OSError):
            while chunk := os.read(self.master, 4096):
                self.seen += chunk.decode("utf-8", "replace")
        os.close(self.master)
        return self.process.returncode

    def _dump_threads(self) -> None:
        """Where every thread of a program that does not end is (faulthandler prints them on
        SIGABRT), added to the screen the failure shows."""
        import select
        import signal
        import time

        self.process.send_signal(signal.SIGABRT)
        ends = time.monotonic() + 5
        while time.monotonic() < ends:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    self.seen += os.read(self.master, 4096).decode("utf-8", "replace")
                except OSError:
                    break


def test_without_a_token_the_explanation_stays_until_enter_and_ctrl_c_leaves_like_q(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("TELEGRAM_TOKEN", "DISCORD_TOKEN")}
    env["SCOPA_DB"] = str(tmp_path / "t.db")
    terminal = Terminal(["--lang", "en"], env)
    screen = terminal.read_until("Press Enter to start a match against the computer")
    assert "BotFather" in screen and "Your move" not in screen
    terminal.type("\n")
    terminal.read_until("Your move (number), h help, q quit: ")
    terminal.type("\x03")  # Ctrl-C, as the keyboard sends it
    assert terminal.finish() == 0
    after = terminal.seen[terminal.seen.rindex("quit: "):]
    assert "Match saved: run the same command to resume it." in after
    assert "Traceback" not in terminal.seen

    again = Terminal(["play", "--lang", "en", "--level", "easy"], env)
    again.read_until("Your move (number), h help, q quit: ")
    again.type("q\n")
    assert again.finish() == 0
    assert "Match saved" in again.seen


FAKE_PYTHON = """#!/bin/sh
echo "python $*" >> "$LOG"
if [ "$1" = "-c" ]; then exit "${FAKE_COMPILED_EXIT:-0}"; fi
if [ "$2" = "pip" ]; then exit "${FAKE_PIP_EXIT:-0}"; fi
if [ "$2" = "pytest" ]; then exit "${FAKE_PYTEST_EXIT:-0}"; fi
"""
FAKE_VENV = """#!/bin/sh
echo "python3 $*" >> "$LOG"
mkdir -p .venv/bin
cp "$FAKES/python" "$FAKES/scopa-bot" "$FAKES/ruff" "$FAKES/mypy" .venv/bin/
"""


class Checkout:
    """A copy of the start-up scripts and install files, with a stand-in Python that notes what
    it is asked to do instead of installing anything."""

    def __init__(self, root: Path) -> None:
        import shutil

        self.root = root / "checkout"
        (self.root / "scripts").mkdir(parents=True)
        for name in ("scripts/run", "scripts/test", "pyproject.toml", "setup.py"):
            shutil.copy2(ROOT / name, self.root / name)
        fakes = root / "fakes"
        fakes.mkdir()
        for name, text in (("python", FAKE_PYTHON), ("python3", FAKE_VENV),
                           ("scopa-bot", '#!/bin/sh\necho "scopa-bot $*" >> "$LOG"\n'),
                           ("ruff", '#!/bin/sh\necho "ruff $*" >> "$LOG"\n'),
                           ("mypy", '#!/bin/sh\necho "mypy $*" >> "$LOG"\nexit "${FAKE_MYPY_EXIT:-0}"\n')):
            (fakes / name).write_text(text)
            (fakes / name).chmod(0o755)
        self.log = root / "log"
        self.env = {**os.environ, "LOG": str(self.log), "FAKES": str(fakes),
                    "PATH": f"{fakes}:{os.environ['PATH']}"}

    def launch(self, script: str, *args: str, **env: str) -> tuple[int, list[str], str]:
        """Exit code, the commands the script ran, and what it said."""
        self.log.write_text("")
        result = subprocess.run(["bash", f"scripts/{script}", *args], cwd=self.root,
                                env={**self.env, **env}, capture_output=True, text=True, timeout=60)
        return result.returncode, self.log.read_text().splitlines(), result.stderr


def test_run_installs_on_the_first_launch_only_and_again_when_the_install_files_change(
        tmp_path: Path) -> None:
    checkout = Checkout(tmp_path)
    code, ran, said = checkout.launch("run", "play", "--help")
    assert code == 0
    assert ran[0] == "python3 -m venv .venv" and "pip install" in ran[1] and ran[1].endswith("-e .")
    assert ran[-1] == "scopa-bot play --help"
    assert said.count("\n") == 1 and "installing into .venv and compiling the engine" in said

    code, ran, said = checkout.launch("run", "play", "--help")
    assert (code, ran, said) == (0, ["scopa-bot play --help"], "")

    with (checkout.root / "pyproject.toml").open("a") as pyproject:
        pyproject.write("\n# a new dependency\n")
    code, ran, said = checkout.launch("run")
    assert code == 0 and "pip install" in ran[0] and ran[-1] == "scopa-bot "
    assert checkout.launch("run")[1] == ["scopa-bot "]


def test_run_says_when_the_engine_could_not_be_compiled_or_the_install_failed(tmp_path: Path) -> None:
    checkout = Checkout(tmp_path)
    code, ran, said = checkout.launch("run", FAKE_COMPILED_EXIT="1", CC="no-such-compiler")
    assert code == 0 and ran[-1] == "scopa-bot "
    assert "the engine could not be compiled (no C compiler" in said and "plain Python" in said

    (checkout.root / "setup.py").write_text("# a build that fails\n")
    code, ran, said = checkout.launch("run", FAKE_COMPILED_EXIT="1", CC="sh")
    assert code != 0 and not any(line.startswith("scopa-bot") for line in ran)
    assert "could not be compiled although there is a C compiler" in said
    code, ran, said = checkout.launch("run", FAKE_COMPILED_EXIT="1", CC="sh", SCOPA_PURE_ENGINE="1")
    assert code == 0 and "pip install" in ran[0] and ran[-1] == "scopa-bot "
    assert "plain Python" in said

    (checkout.root / "setup.py").write_text("# changed\n")
    code, ran, said = checkout.launch("run", FAKE_PIP_EXIT="1")
    assert code != 0 and not any(line.startswith("scopa-bot") for line in ran)
    assert "the installation failed" in said
    code, ran, _ = checkout.launch("run")
    assert code == 0 and "pip install" in ran[0]


def test_the_test_script_installs_the_test_tools_once_and_fails_when_tests_fail(tmp_path: Path) -> None:
    checkout = Checkout(tmp_path)
    code, ran, said = checkout.launch("test", "-q")
    assert code == 0 and ran[0] == "python3 -m venv .venv" and ran[1].endswith("-e .[dev]")
    assert ran[-3:] == ["ruff check bot tests benchmarks", "mypy ",
                        "python -m pytest -n 2 --dist loadfile --durations=15 -q"]
    assert "installing" in said
    code, ran, _ = checkout.launch("test", "-q", SCOPA_TEST_PROCESSES="1")
    assert code == 0 and ran[-1] == "python -m pytest --durations=15 -q", "one process on request"

    for pytest_exit in ("1", "5"):
        code, ran, _ = checkout.launch("test", FAKE_PYTEST_EXIT=pytest_exit)
        assert code == int(pytest_exit)
        assert ran == ["ruff check bot tests benchmarks", "mypy ",
                       "python -m pytest -n 2 --dist loadfile --durations=15"]

    code, ran, _ = checkout.launch("test", FAKE_MYPY_EXIT="1")
    assert code == 1 and ran == ["ruff check bot tests benchmarks", "mypy "], "a type error stops the tests"

    assert checkout.launch("run")[1] == ["scopa-bot "]  # the test tools' install serves run too
    checkout2 = Checkout(tmp_path / "other")
    checkout2.launch("run")
    code, ran, _ = checkout2.launch("test")
    assert code == 0 and ran[0].endswith("-e .[dev]")  # run's install lacks the test tools


def test_the_terminal_speaks_the_systems_language(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.cli import build_parser

    for environment, expected in (({"LANG": "it_IT.UTF-8"}, "it"), ({"LANG": "en_GB.UTF-8"}, "en"),
                                  ({"LANG": "es_ES.UTF-8"}, "es"), ({"LANG": "de_DE.UTF-8"}, "en"),
                                  ({"LC_ALL": "it_CH.UTF-8", "LANG": "C.UTF-8"}, "it"), ({}, "en")):
        for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
            monkeypatch.delenv(name, raising=False)
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        assert build_parser().parse_args(["play"]).lang == expected
        assert build_parser().parse_args(["run"]).lang == expected


def _simulated(tmp_path: Path, *args: str) -> Path:
    path = tmp_path / "matches.jsonl"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["simulate", "--records", str(path), *args]) == 0
    return path


def test_review_json_grades_every_play_of_the_chosen_match_in_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _simulated(tmp_path, "--games", "2", "--seed", "9", "--players", "3")
    record = [json.loads(line) for line in path.read_text().splitlines()][1]
    assert main(["review", "--record", str(path), "--match", "2", "--searches", "2", "--json"]) == 0
    out = capsys.readouterr().out
    lines = [json.loads(line) for line in out.splitlines()]
    plays = [(r, i, play) for r, rnd in enumerate(record["rounds"]) for i, play in enumerate(rnd["plays"])]
    assert len(lines) == len(plays) + 1
    for line, (r, i, play) in zip(lines, plays, strict=False):
        assert list(line)[:6] == ["round", "play", "seat", "played", "best", "loss"]
        equivalent = line.get("reason", {}).get("code") == "equivalent"
        assert ("reason" in line) == (line["loss"] > 0 or equivalent), "a graded play says why"
        if "reason" in line:
            assert set(line["reason"]) >= {"code", "cards"}
            assert all(isinstance(code, str) and len(code) <= 3 for code in line["reason"]["cards"])
        assert (line["round"], line["play"], line["seat"]) == (r, i, play["seat"])
        assert line["played"] == {"card": play["card"], "captured": play["captured"]}
        assert set(line["best"]) == {"card", "captured"} and line["loss"] >= 0
        assert line["loss"] > 0 or line["best"] == line["played"]
    accuracy = lines[-1]["accuracy"]
    assert list(lines[-1]) == ["accuracy"] and len(accuracy) == 3
    assert all(0 <= a <= 100 for a in accuracy)
    assert main(["review", "--record", str(path), "--match", "2", "--searches", "2", "--json"]) == 0
    assert capsys.readouterr().out == out


def test_review_json_leaves_out_the_escoba_dealers_cardless_takes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _simulated(tmp_path, "--variant", "escoba", "--games", "40", "--seed", "1")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    number, record = next((n, r) for n, r in enumerate(records, 1)
                          if any(p["card"] is None for rnd in r["rounds"] for p in rnd["plays"]))
    assert main(["review", "--record", str(path), "--match", str(number), "--searches", "1", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()][:-1]
    cardless = {(r, i) for r, rnd in enumerate(record["rounds"]) for i, p in enumerate(rnd["plays"])
                if p["card"] is None}
    assert cardless and not cardless & {(line["round"], line["play"]) for line in lines}
    assert len(lines) == sum(p["card"] is not None for rnd in record["rounds"] for p in rnd["plays"])


def test_review_summarises_accuracy_and_the_costliest_moves_in_the_chosen_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _simulated(tmp_path, "--games", "1", "--seed", "4")
    assert main(["review", "--record", str(path), "--searches", "2", "--lang", "en"]) == 0
    english = capsys.readouterr().out
    assert english.startswith("Match review\n") and "searches" not in english
    assert "Accuracy: Player 1 " in english and " · Player 2 " in english
    assert "Player 1, the costliest moves:" in english and "Round " in english
    assert main(["review", "--record", str(path), "--searches", "2", "--lang", "it"]) == 0
    italian = capsys.readouterr().out
    assert "Precisione: Giocatore 1 " in italian and "Smazzata " in italian


def test_review_refuses_a_missing_file_a_bad_record_or_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--record", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n")
    assert main(["review", "--record", str(junk)]) == 2
    assert "line 1: not JSON" in capsys.readouterr().err
    path = _simulated(tmp_path, "--games", "1", "--seed", "4")
    assert main(["review", "--record", str(path), "--match", "3"]) == 2
    assert "no match 3" in capsys.readouterr().err
    record = json.loads(path.read_text())
    record["rounds"][0]["plays"][1]["seat"] = record["rounds"][0]["plays"][0]["seat"]
    path.write_text(json.dumps(record) + "\n")
    assert main(["review", "--record", str(path), "--searches", "1"]) == 2
    assert "round 0, play 1:" in capsys.readouterr().err
    for bad in (["--match", "0"], ["--searches", "none"]):
        with pytest.raises(SystemExit) as exit_:
            main(["review", "--record", str(path), *bad])
        assert exit_.value.code == 2
    assert "must be 1 or more" in capsys.readouterr().err
