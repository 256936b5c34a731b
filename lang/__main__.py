"""`python -m lang check`: fails, naming each, while a catalogue misses a phrase, keeps one
the code no longer says, or breaks one (a gap renamed, a command name Discord refuses).
`python -m lang update [LOCALE ...]`: brings every catalogue (or a new one, named by its
Discord locale) up to date with the code, new phrases left empty for a translator.

The phrases are found where the code marks them (`phrase`, `phrase_n`, `phrase_in`, `term`
of `rules.phrases`, read by Babel's extractor), in the slash commands' names, descriptions
and choices (asked of the loaded command tree, as Discord's sync asks them) and in the
games' `/rules` pages (each page's title and text, as `cogs.guide` splits them).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import string
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from pydantic import SecretStr

from lang import HERE, catalogue_paths

ROOT = HERE.parent
SOURCES = ("bot", "cogs", "rules", "render")
KEYWORDS = {
    "phrase": None,
    "phrase_n": (1, 2),
    "phrase_in": ((1, "c"), 2),
    "term": ((1, "c"), 2),
}
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's rule for command and option names
Key = tuple[str | None, str]


def marked() -> Iterator[tuple[Key, str | tuple[str, ...], str]]:
    """Each phrase the source marks: its key, its English and where it is said."""
    for folder in SOURCES:
        found = extract_from_dir(ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS)
        for filename, line, message, _comments, context in found:
            singular = message[0] if isinstance(message, tuple) else message
            yield (context, singular), message, f"{folder}/{filename}:{line}"


async def _command_phrases() -> list[tuple[str | None, str]]:
    from bot.client import make_bot
    from bot.settings import Settings
    from bot.translator import command_words

    with tempfile.TemporaryDirectory() as scratch:
        settings = Settings(
            discord_token=SecretStr("unused"),
            database_url=f"sqlite+aiosqlite:///{scratch}/unused.db",
            workers=0,
        )
        # The cogs start their background tasks as they load, and those fail at once
        # without a login; only the command tree is read here.
        asyncio.get_running_loop().set_exception_handler(lambda _loop, _context: None)
        bot = make_bot(settings)
        for extension in bot.extensions_to_load:
            await bot.load_extension(extension)
        words = await command_words(bot.tree)
    return [(p.context, p.text) for p in words]


def template() -> Catalog:
    """Every phrase the bot says, as an empty catalogue."""
    catalog = Catalog(project="Trash Table", fuzzy=False)
    for (context, _), message, where in marked():
        path, line = where.rsplit(":", 1)
        catalog.add(message, locations=[(path, int(line))], context=context)
    for context, text in asyncio.run(_command_phrases()):
        if catalog.get(text, context) is None:
            catalog.add(text, locations=[("commands", 0)], context=context)
    for context, text, where in _rules_pages():
        if catalog.get(text, context) is None:
            catalog.add(text, locations=[(where, 0)], context=context)
    return catalog


def _rules_pages() -> Iterator[tuple[str, str, str]]:
    from cogs.guide._pages import PAGE, TITLE, pages
    from cogs.shared.plugin import PLUGINS

    for kind, plugin in PLUGINS.items():
        where = str(plugin.guide.relative_to(ROOT))
        for title, body in pages(kind):
            yield TITLE, title, where
            yield PAGE, body, where


def read(path: Path) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=path.stem.replace("-", "_"))


def write(catalog: Catalog, path: Path) -> None:
    with path.open("wb") as po:
        write_po(po, catalog, width=100, sort_output=False, include_previous=False)


def gaps(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def problems(language: str, catalog: Catalog, wanted: Catalog) -> Iterator[str]:
    for message in wanted:
        if not message.id:
            continue
        have = catalog.get(message.id, message.context)
        where = ", ".join(f"{p}:{n}" for p, n in message.locations)
        label = f"{language}: {message.id!r}" + (f" ({message.context})" if message.context else "")
        if have is None or not _translated(have):
            yield f"{label} is not translated ({where})"
            continue
        yield from _broken(label, message, have)
    for message in catalog:
        if message.id and wanted.get(message.id, message.context) is None:
            yield f"{language}: {message.id!r} is no longer said (python -m lang update)"


def _strings(said: object) -> list[str]:
    """A catalogue entry's text or texts (a plural has one for each form)."""
    return [str(s) for s in said] if isinstance(said, (tuple, list)) else [str(said or "")]


def _translated(message: Message) -> bool:
    return not message.fuzzy and all(_strings(message.string))


def _broken(label: str, wanted: Message, have: Message) -> Iterator[str]:
    expected = set().union(*(gaps(i) for i in _strings(wanted.id)))
    for said in _strings(have.string):
        if gaps(said) - expected:
            yield f"{label}: its translation has gaps the English lacks: {said!r}"
        if wanted.context in ("command name", "option name") and (
            not COMMAND_NAME.match(said) or said != said.lower()
        ):
            yield f"{label}: Discord wants 1-32 lowercase letters, digits, - or _: {said!r}"
        if wanted.context is None and wanted.locations == [("commands", 0)] and len(said) > 100:
            yield f"{label}: Discord allows 100 characters in a description: {said!r}"


def check() -> int:
    wanted = template()
    found = [
        p
        for language, path in catalogue_paths().items()
        for p in problems(language, read(path), wanted)
    ]
    for problem in found:
        print(problem)
    print(f"{len(wanted)} phrases; {len(catalogue_paths())} catalogues; {len(found)} problems")
    return 1 if found else 0


def update(new: list[str]) -> int:
    wanted = template()
    paths = catalogue_paths()
    for language in new:
        paths.setdefault(language, HERE / f"{language}.po")
    for language, path in paths.items():
        catalog = read(path) if path.exists() else _new(language)
        catalog.update(wanted, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        write(catalog, path)
        print(f"{path.relative_to(ROOT)}: {len(catalog)} phrases")
    return 0


def _new(language: str) -> Catalog:
    return Catalog(
        locale=language.replace("-", "_"),
        project="Trash Table",
        copyright_holder="the Trash Table authors",
        msgid_bugs_address="",
        fuzzy=False,
    )


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m lang")
    parser.add_argument("command", choices=("check", "update"))
    parser.add_argument("locales", nargs="*", help="update: new catalogues to start")
    args = parser.parse_args()
    return check() if args.command == "check" else update(args.locales)


if __name__ == "__main__":
    sys.exit(main())
