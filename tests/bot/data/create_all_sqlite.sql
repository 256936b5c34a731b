-- The schema `SQLModel.metadata.create_all` made on sqlite before Alembic owned it
-- (every database deployed until then). Frozen: never edit; tests/bot/test_migrations.py
-- builds an old database from it.

CREATE TABLE games (
	id INTEGER NOT NULL,
	guild_id BIGINT NOT NULL,
	channel_id BIGINT NOT NULL,
	kind VARCHAR NOT NULL,
	status VARCHAR NOT NULL,
	host_id BIGINT NOT NULL,
	seed BIGINT NOT NULL,
	options JSON,
	seats JSON,
	state JSON,
	step INTEGER NOT NULL,
	lobby_message_id BIGINT,
	board_message_id BIGINT,
	turn_timer INTEGER NOT NULL,
	turn_deadline DATETIME,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	finished_at DATETIME,
	PRIMARY KEY (id)
);

CREATE INDEX ix_games_guild_id ON games (guild_id);

CREATE UNIQUE INDEX one_active_game_per_channel ON games (channel_id) WHERE status IN ('lobby', 'playing');

CREATE TABLE ratings (
	guild_id BIGINT NOT NULL,
	kind VARCHAR NOT NULL,
	user_id BIGINT NOT NULL,
	mu FLOAT NOT NULL,
	sigma FLOAT NOT NULL,
	PRIMARY KEY (guild_id, kind, user_id)
);

CREATE TABLE actions (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	step INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	actor VARCHAR NOT NULL,
	action VARCHAR NOT NULL,
	created_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_actions_game_id ON actions (game_id);

CREATE TABLE results (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	guild_id BIGINT NOT NULL,
	kind VARCHAR NOT NULL,
	seat INTEGER NOT NULL,
	user_id BIGINT,
	name VARCHAR NOT NULL,
	rank INTEGER NOT NULL,
	points INTEGER NOT NULL,
	rated BOOLEAN NOT NULL,
	finished_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_results_game_id ON results (game_id);

CREATE INDEX ix_results_guild_id ON results (guild_id);
