"""What the docs and the code's comments point at exists: a renamed file, module or heading
leaves no stale pointer behind.

Read are the README, CONTRIBUTING.md if there is one, docs/*.md (but the performance log,
which is history written at the time) and every docstring and comment of the project's
Python. In them:

- a repository path (`bot/outbox.py`, `tests/e2e/`, `docs/ai.md`) exists;
- a module run with `python -m` (`python -m bench.capacity`) exists;
- a Markdown link to a file of the repository reaches it, and its `#anchor` a heading there;
- a heading cited by name (`docs/performance.md, "Worker memory"`) is the start of a
  heading of that file.

Not checked: URLs, paths outside the repository (`/tmp/…`, `.venv/…`), paths with a
placeholder (`rules/<game>/`, `tests/rules/test_*.py`, `tests/…`) and the examples listed
in EXAMPLES, which stand for files a reader would make.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ("bot", "cogs", "render", "rules", "lang", "bench", "tests")
HISTORY = {"docs/performance-log.md"}  # written at the time; its paths are the old ones
# Paths that stand for files a reader would make, by the document that names them.
EXAMPLES = {
    "lang/pt-BR.po": "README.md: the catalogue of a language to add",
    "lang/es-ES.po": "docs/languages.md: the same",
}

URL = re.compile(r"\b(?:https?|file)://\S+")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
MODULE_RUN = re.compile(r"python3? -m ([A-Za-z_][\w.]*)")
# A document, then a quoted heading: `docs/performance.md, "Worker memory"`.
CITED = re.compile(r"([\w./-]+\.md)\)?,? (?:section |under )?[\"“]([^\"”]+)[\"”]")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.MULTILINE)
# A paragraph or list item led by a bold label (`* **Rate limits.** ...`): cited like a heading.
LABEL = re.compile(r"^\s*(?:[*-] +)?\*\*([^*]+?)\*\*", re.MULTILINE)


def tracked() -> list[str]:
    listed = ["git", "ls-files", "--cached", "--others", "--exclude-standard"]
    run = subprocess.run(listed, cwd=ROOT, check=True, capture_output=True, text=True)
    return [name for name in run.stdout.splitlines() if (ROOT / name).exists()]


FILES = tracked()
TOPS = sorted({name.split("/")[0] for name in FILES if "/" in name})
# A path starts at one of the repository's top folders, not inside another path or a URL.
PATH = re.compile(rf"(?<![\w./~-])((?:{'|'.join(map(re.escape, TOPS))})/[\w./-]*)")


@dataclass(frozen=True)
class Text:
    """Prose to check: where it is (a file and line) and its words, whitespace collapsed
    so that a pointer wrapped over two lines reads as one."""

    where: str
    words: str
    folder: Path  # relative links resolve from here


def markdown_texts() -> list[Text]:
    docs = sorted(name for name in FILES if re.fullmatch(r"docs/[^/]+\.md", name))
    names = ["README.md", "CONTRIBUTING.md", *docs]
    texts = []
    for name in names:
        path = ROOT / name
        if name in HISTORY or not path.exists():
            continue
        # One text a paragraph, so that a failure names its line.
        line = 1
        for paragraph in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
            texts.append(Text(f"{name}:{line}", " ".join(paragraph.split()), path.parent))
            line += paragraph.count("\n") + 2
    return texts


def python_texts() -> list[Text]:
    texts = []
    for name in FILES:
        if not name.endswith(".py") or name.split("/")[0] not in PYTHON:
            continue
        source = (ROOT / name).read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    line = node.body[0].lineno
                    words = " ".join(doc.split())
                    texts.append(Text(f"{name}:{line}", words, (ROOT / name).parent))
        # Consecutive comment lines are one text: a pointer may wrap from one to the next.
        block: list[str] = []
        start = 0
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                if not block:
                    start = token.start[0]
                block.append(token.string.lstrip("#"))
            elif token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT):
                if block:
                    words = " ".join(" ".join(block).split())
                    texts.append(Text(f"{name}:{start}", words, (ROOT / name).parent))
                block = []
    return texts


TEXTS = markdown_texts() + python_texts()


def headings(path: Path, labels: bool = False) -> list[str]:
    """The file's headings as they read (code marks and links taken out), with `labels`
    the bold labels that lead a paragraph or list item too."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    found = HEADING.findall(text) + (LABEL.findall(text) if labels else [])
    found = [re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", h) for h in found]
    return [h.replace("`", "").replace("*", "").strip() for h in found]


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def paths_in(words: str) -> list[str]:
    """The repository paths named in `words`, but those with a placeholder."""
    found = []
    for match in PATH.finditer(URL.sub(" ", words)):
        after = words[match.end() : match.end() + 1] if match.end() < len(words) else ""
        if after in ("<", "{", "*", "…"):
            continue  # `rules/<game>/`, `lang/*.po`, `tests/…`
        path = match.group(1).rstrip(".,:;")
        if path.endswith("/..") or "..." in path:
            continue
        found.append(path)
    return found


def module_exists(module: str) -> bool:
    parts = module.split(".")
    if parts[0] not in TOPS:
        return True  # not the project's (pip, uv, venv, http.server)
    base = ROOT.joinpath(*parts)
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def document(name: str, text: Text) -> Path | None:
    """The Markdown file a citation names: from the repository's root, or beside the text
    (a doc citing another doc of its folder), or in docs/."""
    for folder in (text.folder, ROOT, ROOT / "docs"):
        if (folder / name).is_file():
            return folder / name
    return None


def problems(text: Text) -> list[str]:
    found = []
    for path in paths_in(text.words):
        if path in EXAMPLES:
            continue
        if not (ROOT / path).exists():
            found.append(f"{text.where}: no such path {path}")
    for module in MODULE_RUN.findall(text.words):
        if not module_exists(module.rstrip(".")):
            found.append(f"{text.where}: no module to run: python -m {module}")
    for target in LINK.findall(text.words):
        if URL.match(target) or target.startswith("mailto:"):
            continue
        file, _, fragment = target.partition("#")
        linked = (text.folder / file).resolve() if file else None
        if linked is not None and not linked.exists():
            found.append(f"{text.where}: the link {target} reaches nothing")
            continue
        if fragment and (linked is None or linked.suffix == ".md"):
            names = headings(linked) if linked else []
            if linked is not None and fragment not in {anchor(h) for h in names}:
                found.append(f"{text.where}: no heading #{fragment} in {file}")
    for name, cited in CITED.findall(text.words):
        if URL.search(name):
            continue
        path = document(name, text)
        if path is None:
            if not any(name.endswith(example) for example in EXAMPLES):
                found.append(f"{text.where}: cites {name}, which does not exist")
            continue
        wanted = " ".join(cited.replace("`", "").split()).casefold()
        if not any(h.casefold().startswith(wanted) for h in headings(path, labels=True)):
            found.append(f'{text.where}: no heading "{cited}" in {name}')
    return found


@pytest.mark.parametrize("kind", ["docs", "code"])
def test_every_pointer_in_the_docs_and_comments_leads_somewhere(kind: str) -> None:
    texts = markdown_texts() if kind == "docs" else python_texts()
    assert texts
    stale = [problem for text in texts for problem in problems(text)]
    assert stale == [], "\n".join(stale)


def test_the_check_sees_a_stale_path_module_link_and_heading() -> None:
    """Each kind of pointer, broken on purpose, is caught; and the ones left alone pass."""
    broken = [
        "see `bot/no_such_module.py` for it",
        "run `python -m bench.no_such_tool`",
        "[the log](no-such-file.md)",
        "[figures](performance.md#no-such-heading)",
        '(docs/performance.md, "A heading that is not there")',
    ]
    for words in broken:
        assert problems(Text("example", words, ROOT / "docs")), words
    fine = [
        "see `bot/outbox.py` and `tests/e2e/`, `rules/<game>/engine.py`, /tmp/bot/x.py",
        "https://example.com/bot/nothing.py and `.venv/bin/python -m bench.capacity`",
        "[figures](performance.md#what-keeps-answers-fast)",
        '(docs/performance.md, "Worker memory")',
    ]
    for words in fine:
        assert problems(Text("example", words, ROOT / "docs")) == [], words


def test_the_check_reads_every_kind_of_text() -> None:
    wheres = [text.where for text in TEXTS]
    assert any(w.startswith("README.md:") for w in wheres)
    assert any(w.startswith("docs/architecture.md:") for w in wheres)
    assert any(w.startswith("bot/outbox.py:") for w in wheres)  # docstrings and comments
    assert not any(w.startswith("docs/performance-log.md:") for w in wheres)
