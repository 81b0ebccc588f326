"""Front-ends: thin translators between a chat platform (or the terminal) and the sessions layer."""
