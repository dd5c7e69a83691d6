"""README.md and docs/*.md, checked so that none goes stale.

Every fenced block carries a language tag, and the tag says what happens to it:

- ```console: a transcript. Lines starting with "$ " are commands, the lines after each its
  output (stdout and stderr together; a line "..." stands for any lines, "..." inside a line
  for any text). The commands run with bash, one block after another, in a temporary folder
  of the page's own (with `mpgen` from .venv on the PATH, `build` linking to the checkout's
  build/ and MPGEN_CACHE a temporary cache): each must print exactly what is shown and exit
  with 0, unless the next command is `echo $?`, whose shown output is then its status.
- ```python: run, every block of a page in one process in that folder, on the CPU (the
  GPU is made unavailable to mpgen's runtime); ```python gpu: compiled, and every `mpgen.X`
  it uses must exist.
- ```cpp NAME, ```toml NAME (a file name after the tag): written to NAME in the page's
  folder before its commands run (the console blocks compile and use them); a toml file
  must parse.
- ```sh: commands that need a GPU, a CMake build of the project or minutes, which cannot
  run here: every script, binary, target, CMake option, program flag and environment
  variable they name must exist in the checkout.
- ```cpp and ```cuda without a file name: every `mpgen::a::b` they name must exist in the
  runtime's header, the hand-written C++ or a generated header.
- ```cmake: every keyword of `mpgen_generate` must be one cmake/mpgen.cmake parses, every
  `mpgen::` target one CMakeLists.txt exports.
- ```text: diagrams.

Besides: links to files of the checkout resolve; README stays under 300 lines; no page
refers to the project's work log (issue or session numbers, the seed documents by number,
the notebook), nor does any tracked text file outside bench/results/ (papers by number,
issue numbers, the log's file); and bench/results/ holds exactly the files
docs/performance.md cites.

The runnable commands need the project set up as scripts/test leaves it: .venv, and
build/mpgen-run for the commands that use it (missing, the test fails and says so: it
builds nothing)."""
from __future__ import annotations

import ast
import functools
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PAGE_IDS = [str(p.relative_to(ROOT)) for p in PAGES]
KNOWN_TAGS = {"console", "sh", "python", "cpp", "cuda", "cmake", "toml", "text"}
MARKER = "@@mpgen-docs-command@@"
BLOCK = re.compile(r"^```([^\s`]*)[ \t]*([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)


class Block:
    def __init__(self, page: Path, tag: str, arg: str, body: str, line: int) -> None:
        self.page, self.tag, self.arg, self.body, self.line = page, tag, arg.strip(), body, line

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@functools.lru_cache(maxsize=None)
def blocks(page: Path) -> tuple[Block, ...]:
    text = page.read_text()
    return tuple(Block(page, m.group(1), m.group(2), m.group(3), text.count("\n", 0, m.start()) + 1)
                 for m in BLOCK.finditer(text))


def all_blocks(tag: str) -> list[Block]:
    return [b for page in PAGES for b in blocks(page) if b.tag == tag]


def read(path: str) -> str:
    return (ROOT / path).read_text()


# ---- the checkout: what commands may name ------------------------------------------------

@functools.lru_cache(maxsize=None)
def cmake_lists() -> dict[Path, str]:
    skip = ("build", ".venv", ".git")
    return {p: p.read_text() for p in ROOT.rglob("CMakeLists.txt")
            if not any(part.startswith(skip) for part in p.relative_to(ROOT).parts)}


@functools.lru_cache(maxsize=None)
def executables() -> dict[str, Path]:
    """add_executable(NAME source ...) of every CMakeLists.txt: NAME -> its first source."""
    found = {}
    for path, text in cmake_lists().items():
        for m in re.finditer(r"add_executable\(\s*([\w-]+)\s+((?:EXCLUDE_FROM_ALL\s+)?)([^\s)]+)", text):
            found[m.group(1)] = path.parent / m.group(3)
    return found


@functools.lru_cache(maxsize=None)
def cmake_targets() -> set[str]:
    return {m.group(1) for text in cmake_lists().values()
            for m in re.finditer(r"add_(?:executable|library|custom_target)\(\s*([\w:-]+)", text)}


@functools.lru_cache(maxsize=None)
def cmake_options() -> set[str]:
    """option(NAME ...) and set(NAME ... CACHE ...) of every CMakeLists.txt."""
    return {m.group(1) or m.group(2) for text in cmake_lists().values()
            for m in re.finditer(r"option\(\s*(\w+)|set\(\s*(\w+)[^)]*\bCACHE\b", text)}


@functools.lru_cache(maxsize=None)
def mpgen_help() -> str:
    mpgen = venv_bin() / "mpgen"
    return "".join(subprocess.run([str(mpgen), *args, "--help"], capture_output=True, text=True,
                                  check=True).stdout for args in ([], ["generate"], ["table"]))


@functools.lru_cache(maxsize=None)
def source_text() -> str:
    """The checkout's code, where an environment variable a command sets must be read."""
    parts = []
    for folder in ("generator/mpgen", "runtime", "tests", "scripts", "bench", "cmake", "examples"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in {".py", ".cpp", ".hpp", ".cu", ".cuh", ".sh", ".cmake", ".j2", ""} \
                    and path != Path(__file__).resolve():
                try:
                    parts.append(path.read_text())
                except UnicodeDecodeError:
                    pass
    return "\n".join(parts)


def venv_bin() -> Path:
    for folder in (ROOT / ".venv" / "bin", Path(sys.executable).parent):
        if (folder / "mpgen").exists():
            return folder
    pytest.fail("no mpgen command in .venv/bin: run scripts/setup (or scripts/test) first")


def pyproject_extras() -> set[str]:
    return set(tomllib.loads(read("pyproject.toml"))["project"]["optional-dependencies"])


# ---- sh blocks: commands checked, not run ------------------------------------------------

SIMPLE_TOOLS = {"echo", "seq", "printf", "tr", "ls", "cat", "head", "grep"}


def segments(line: str) -> list[list[str]]:
    """A command line's simple commands (split at |, &&, ||, ;), comments dropped."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars="|&;")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    out, current = [], []
    for token in lexer:
        if token in {"|", "&&", "||", ";", "&"}:
            out.append(current)
            current = []
        else:
            current.append(token)
    out.append(current)
    return [s for s in out if s]


def flags(words: list[str]) -> list[str]:
    return [w.split("=", 1)[0] for w in words if w.startswith("--") and len(w) > 2]


def check_flags(program: str, words: list[str], source: Path) -> list[str]:
    text = source.read_text()
    return [f"{program}: {flag} is not in {source.relative_to(ROOT)}" for flag in flags(words)
            if not re.search(re.escape(flag) + r"(?![\w-])", text)]


def check_mpgen(words: list[str]) -> list[str]:
    problems = []
    if words and not words[0].startswith("-") and words[0] not in {"generate", "table"}:
        problems.append(f"mpgen has no subcommand {words[0]}")
    help_text = mpgen_help()
    problems += [f"mpgen: {flag} is not an option (mpgen --help, mpgen generate --help)"
                 for flag in flags(words) if not re.search(re.escape(flag) + r"(?![\w-])", help_text)]
    return problems


def check_cmake(words: list[str]) -> list[str]:
    problems = []
    for k, word in enumerate(words):
        if word.startswith("-D"):
            name = word[2:].split("=", 1)[0].split(":", 1)[0]
            if not (name.startswith("CMAKE_") or name == "Python3_EXECUTABLE" or name in cmake_options()):
                problems.append(f"cmake: -D{name} is not an option of any CMakeLists.txt")
        if word == "--target" and words[k + 1] not in cmake_targets():
            problems.append(f"cmake: target {words[k + 1]} is defined by no CMakeLists.txt")
        if word == "-S" and not (ROOT / words[k + 1] / "CMakeLists.txt").exists():
            problems.append(f"cmake: -S {words[k + 1]} has no CMakeLists.txt")
    return problems


def check_program(words: list[str]) -> list[str]:
    if words and words[0] in {"for", "done"}:
        return []  # a loop's header (its values) and end; its body is checked as commands
    if words and words[0] == "do":
        words = words[1:]
    while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
        name = words.pop(0).split("=", 1)[0]
        if not re.search(r"\b" + name + r"\b", source_text()):
            return [f"the environment variable {name} is read nowhere in the checkout"]
    if not words:
        return []
    program, rest = words[0], words[1:]
    if program == "mpgen":
        return check_mpgen(rest)
    if program == "cmake":
        return check_cmake(rest)
    if program == "ctest":
        return [] if "--test-dir" in rest or not rest else ["ctest: give --test-dir"]
    if program in {"python", "python3"}:
        script = next((w for w in rest if not w.startswith("-")), None)
        if script is None or not (ROOT / script).is_file():
            return [f"{program}: no script {script} in the checkout"]
        return check_flags(script, rest[1:], ROOT / script)
    if program == "pip":
        extras = [re.search(r"\[(\w+)\]", w).group(1) for w in rest if re.search(r"\[(\w+)\]", w)]
        return [f"pip: no extra [{e}] in pyproject.toml" for e in extras if e not in pyproject_extras()]
    if program.startswith("build/"):
        name = Path(program).name
        if name not in executables():
            return [f"{program}: {name} is built by no CMakeLists.txt"]
        return check_flags(program, rest, executables()[name])
    if program.startswith(("scripts/", "bench/", "tests/")):
        path = ROOT / program
        if not (path.is_file() and os.access(path, os.X_OK)):
            return [f"{program} is not an executable file of the checkout"]
        return check_flags(program, rest, path)
    if program in SIMPLE_TOOLS:
        return []
    return [f"{program}: a program these checks do not know"]


def sh_problems(block: Block) -> list[str]:
    problems = []
    for line in block.body.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        for words in segments(line):
            problems += [f"{block.where()}: {p} (in: {line.strip()})" for p in check_program(list(words))]
    return problems


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_sh_commands_name_what_exists(page):
    """The commands that cannot run here name scripts, binaries, targets, options and flags
    that exist."""
    problems = [p for b in blocks(page) if b.tag == "sh" for p in sh_problems(b)]
    assert not problems, "\n".join(problems)


def test_the_sh_checks_can_fail():
    """The checks above reject what does not exist."""
    bad = ["scripts/nothing", "build/mpgen-nothing --bits 3", "build/mpgen-run --no-such-flag",
           "mpgen generate --no-such-flag --out x", "cmake -S . -B b -DMPGEN_NOTHING=ON",
           "cmake --build build --target no-such-target", "MPGEN_NO_SUCH_VARIABLE=1 build/mpgen-run",
           "frobnicate --now", 'pip install ".[nothing]"', "python bench/nothing.py"]
    for line in bad:
        assert [p for words in segments(line) for p in check_program(list(words))], line


# ---- cmake, cpp and cuda blocks: names checked -------------------------------------------

def test_cmake_blocks_use_what_mpgen_cmake_parses():
    parse = re.search(r"cmake_parse_arguments\(PARSE_ARGV 1 ARG ((?:\"[^\"]*\"\s*)+)\)", read("cmake/mpgen.cmake"))
    keywords = set(" ".join(parse.group(1).replace('"', " ").split(";")).split())
    exported = {"mpgen::" + m.group(1) for m in re.finditer(r"EXPORT_NAME (\w+)", read("CMakeLists.txt"))}
    problems = []
    cmake_blocks = all_blocks("cmake")
    assert cmake_blocks, "no cmake block"
    for block in cmake_blocks:
        body = re.sub(r"#[^\n]*", "", block.body)
        calls = re.findall(r"mpgen_generate\(([^)]*)\)", body)
        assert calls or "mpgen::" in body, block.where()
        for call in calls:
            words = call.split()[1:]
            problems += [f"{block.where()}: mpgen_generate has no keyword {w}" for w in words
                         if re.fullmatch(r"[A-Z_]+", w) and w not in keywords]
        problems += [f"{block.where()}: no target {t}" for t in re.findall(r"mpgen::\w+", body) if t not in exported]
    assert not problems, "\n".join(problems)


@functools.lru_cache(maxsize=None)
def api_words(folder: Path) -> set[str]:
    """Words of the runtime's header, the hand-written C++ and headers generated for a size
    and a field."""
    env = dict(os.environ, PATH=f"{venv_bin()}{os.pathsep}{os.environ['PATH']}")
    subprocess.run(["mpgen", "generate", "--bits", "131", "--out", str(folder)], env=env, check=True,
                   capture_output=True)
    subprocess.run(["mpgen", "generate", "--field", "secp256k1", "--out", str(folder)], env=env, check=True,
                   capture_output=True)
    texts = [read("runtime/include/mpgen/runtime.hpp"), *(p.read_text() for p in folder.glob("*.cuh")),
             *(p.read_text() for p in (ROOT / "generator/mpgen/headers").glob("*.cuh"))]
    return set(re.findall(r"\w+", "\n".join(texts)))


def test_code_blocks_name_existing_api(tmp_path_factory):
    words = api_words(tmp_path_factory.mktemp("api"))
    problems, seen = [], 0
    for block in all_blocks("cpp") + all_blocks("cuda"):
        if block.tag == "cpp" and block.arg:
            continue  # written and compiled by the page's commands
        for name in re.findall(r"mpgen::[\w:]+", block.body):
            seen += 1
            problems += [f"{block.where()}: {name}: no {part}" for part in name.split("::")[1:]
                         if part and part not in words]
    assert seen, "no cpp or cuda block names mpgen's API"
    assert not problems, "\n".join(problems)


def test_gpu_python_blocks_compile_and_name_existing_functions():
    import mpgen
    gpu_blocks = [b for b in all_blocks("python") if b.arg == "gpu"]
    for block in gpu_blocks:
        tree = ast.parse(block.body, filename=block.where())
        used = {n.attr for n in ast.walk(tree)
                if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "mpgen"}
        assert used, f"{block.where()}: uses nothing of mpgen"
        missing = [name for name in used if not hasattr(mpgen, name)]
        assert not missing, f"{block.where()}: mpgen has no {missing}"


# ---- console, python and file blocks: run --------------------------------------------------

def transcript(body: str) -> list[tuple[str, list[str]]]:
    """A console block's (command, shown output lines) pairs."""
    pairs: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        else:
            assert pairs, f"output before any command: {line!r}"
            pairs[-1][1].append(line.rstrip())
    return pairs


def output_matches(shown: list[str], actual: list[str]) -> bool:
    pattern = "".join(r"(?:[^\n]*\n)*?" if line.strip() == "..." else
                      re.escape(line).replace(re.escape("..."), r"[^\n]*") + r"\n" for line in shown)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual)) is not None


def test_output_matching_can_fail():
    assert output_matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert output_matches(["x ... z"], ["x y z"])
    assert not output_matches(["a", "d"], ["a", "b", "d"])
    assert not output_matches([], ["noise"])
    assert not output_matches(["a"], ["b"])


def run_console(block: Block, folder: Path, env: dict) -> None:
    pairs = transcript(block.body)
    assert pairs, f"{block.where()}: a console block without commands"
    if any(re.search(r"(^|[\s|;&])build/mpgen-run\b", command) for command, _ in pairs):
        assert (ROOT / "build" / "mpgen-run").exists(), (
            f"{block.where()} runs build/mpgen-run, which is missing: build it first (scripts/test)")
    script = ["__rc=0"]
    for k, (command, _) in enumerate(pairs):
        script += ["( exit $__rc )", command, "__rc=$?", f"printf '\\n{MARKER} {k} %d\\n' $__rc"]
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=folder, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    # [output 0, 0, status 0, output 1, 1, status 1, ..., what follows the last marker]
    chunks = re.split(rf"\n{MARKER} (\d+) (\d+)\n", "\n" + done.stdout)
    ran = (len(chunks) - 1) // 3
    assert ran == len(pairs) and [int(chunks[3 * k + 1]) for k in range(ran)] == list(range(ran)), (
        f"{block.where()}: the commands did not all run:\n{done.stdout}")
    for k, (command, shown) in enumerate(pairs):
        status = int(chunks[3 * k + 2])
        actual = [line.rstrip() for line in chunks[3 * k].split("\n")]
        while actual and not actual[0]:
            actual.pop(0)
        while actual and not actual[-1]:
            actual.pop()
        next_is_status = k + 1 < len(pairs) and pairs[k + 1][0].strip() == "echo $?"
        assert status == 0 or next_is_status, (
            f"{block.where()}: `{command}` exited with {status}:\n" + "\n".join(actual))
        assert output_matches(shown, actual), (
            f"{block.where()}: `{command}` printed\n" + "\n".join(actual) + "\n-- where the page shows --\n"
            + "\n".join(shown))


CPU_ONLY = """import mpgen.runtime.gpu as _mpgen_gpu, mpgen.runtime.module as _mpgen_module
_mpgen_gpu.available = lambda: "the docs test runs on the CPU"
if hasattr(_mpgen_module, "available"):
    _mpgen_module.available = _mpgen_gpu.available
"""


def run_python(page: Path, code: list[Block], folder: Path, env: dict) -> None:
    script = folder / "docs_blocks.py"
    script.write_text(CPU_ONLY + "".join(f"\n# {b.where()}\n{b.body}" for b in code))
    done = subprocess.run([sys.executable, str(script)], cwd=folder, env=dict(env, CUDA_VISIBLE_DEVICES=""),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{page.relative_to(ROOT)}'s python blocks failed:\n{done.stdout}{done.stderr}"


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("mpgen-cache")


def runnable(page: Path) -> bool:
    return any(b.tag == "console" or (b.tag == "python" and not b.arg) for b in blocks(page))


@pytest.mark.parametrize("page", [p for p in PAGES if runnable(p)],
                         ids=[str(p.relative_to(ROOT)) for p in PAGES if runnable(p)])
def test_page_runs(page, tmp_path, cache):
    """The page's commands print what it shows, its Python blocks run."""
    env = dict(os.environ, PATH=f"{venv_bin()}{os.pathsep}{os.environ['PATH']}", MPGEN_CACHE=str(cache))
    env.pop("PYTHONPATH", None)
    (tmp_path / "build").symlink_to(ROOT / "build", target_is_directory=True)
    code = []
    for block in blocks(page):
        if block.arg and block.tag in {"cpp", "toml"}:
            assert re.fullmatch(r"[\w.-]+", block.arg), f"{block.where()}: {block.arg!r} is not a file name"
            (tmp_path / block.arg).write_text(block.body)
            if block.tag == "toml":
                tomllib.loads(block.body)
        elif block.tag == "console":
            run_console(block, tmp_path, env)
        elif block.tag == "python" and not block.arg:
            code.append(block)
    if code:
        run_python(page, code, tmp_path, env)


# ---- the pages themselves ------------------------------------------------------------------

@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_blocks_have_known_tags(page):
    unknown = [f"{b.where()}: ```{b.tag}" for b in blocks(page) if b.tag not in KNOWN_TAGS
               or (b.arg and b.tag not in {"cpp", "toml", "python"})
               or (b.tag == "python" and b.arg not in {"", "gpu"})]
    assert not unknown, "blocks whose tag says nothing of what to do with them:\n" + "\n".join(unknown)
    assert page.read_text().count("```") == 2 * len(blocks(page)), f"{page}: an unclosed or odd fence"


def test_readme_is_short():
    lines = read("README.md").count("\n")
    assert lines < 300, f"README.md has {lines} lines"


WORK_LOG = re.compile(r"\bseeds? (?:\d|0\d\d)|\bissues? \d+|\b\w+(?:th|first|second|third) session\b|"
                      r"\bsession \d+|NOTES\.md|ANCHORS|\bs\d\d\b", re.I)


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_no_work_log_references(page):
    hits = [f"{page.relative_to(ROOT)}:{n}: {line.strip()}" for n, line in enumerate(page.read_text().splitlines(), 1)
            if WORK_LOG.search(line) and not re.search(r"bench/results/\S*s\d\d", line)]
    assert not hits, "\n".join(hits)


# Beyond the pages: no tracked file (source, comments, messages, tests) may cite the papers
# the project started from by their number, an issue by its number, or the work log, which
# a reader of the checkout does not have. bench/results/ holds recorded output, as it was.
LOG_REFERENCE = re.compile(r"\bseed 00\d|\bissue \d+|NOTES\.md|\bwork notes?\b", re.I)


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    files = []
    for name in listed.decode().split("\0"):
        path = ROOT / name
        if not name or name.startswith("bench/results/") or path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" not in data[:8192]:
            files.append(path)
    return files


def test_no_tracked_file_refers_to_the_work_log():
    hits = []
    for path in tracked_text_files():
        text = path.read_bytes().decode("utf-8", errors="replace")
        hits += [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
                 if LOG_REFERENCE.search(line)]
    assert not hits, "say what is meant instead (the paper by its authors and title, the fact, or the " \
        "docs/ page):\n" + "\n".join(hits)


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_links_resolve(page):
    text = page.read_text()
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    broken = [t for t in targets if not re.match(r"https?://", t) and not (page.parent / t.split("#")[0]).exists()]
    assert not broken, f"{page.relative_to(ROOT)}: broken links {broken}"


def cited_results() -> set[str]:
    """The bench/results files docs/performance.md names ({a,b} expanded)."""
    text = read("docs/performance.md")
    names = set()
    for token in re.findall(r"[\w./{},-]+\.(?:csv|txt|png|\{[\w,]+\})", text):
        match = re.search(r"\{([\w,]+)\}", token)
        variants = [token.replace(match.group(0), v) for v in match.group(1).split(",")] if match else [token]
        names |= {Path(v).name for v in variants if "bench/results/" in v or re.search(r"\d{4}-\d\d-\d\d", v)}
    return names


def test_results_are_the_cited_files():
    present = {p.name for p in (ROOT / "bench" / "results").iterdir()}
    cited = cited_results()
    assert cited, "docs/performance.md cites no results"
    assert not cited - present, f"cited but missing from bench/results: {sorted(cited - present)}"
    assert not present - cited, f"in bench/results but cited nowhere: {sorted(present - cited)}"
