"""The benchmarks and measurement tools: `python -m bench` for the main benchmark,
`python -m bench.<tool>` for each of the others (docs/performance.md lists them).

Not shipped in the bot's package or image. A tool may import anything in the project,
test helpers included (the fake Discord, the test PostgreSQL server); nothing in bot/,
cogs/, render/, rules/ or lang/ imports bench/ (tests/test_architecture.py).
"""
