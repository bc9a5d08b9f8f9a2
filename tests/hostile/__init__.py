"""Hostile and broken input: URLs, credentials, terminal text, remotes, encodings, files, cache, spans."""
