"""Discord machinery every game shares: presenters, persistent components, board messages
and lobbies. Not a cog itself: `cogs.table` registers the components and owns `/game`."""
