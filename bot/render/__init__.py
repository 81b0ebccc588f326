"""The words, tables and picture scenes every front-end shows, one module per topic.

`words` holds what all topics share (cards, moves, lobby, table, refusals); the others each word
one part of the game (boards, counts, daily, owners, puzzle, replay, review, round, season,
tournament). Nothing here touches storage or a platform."""
