"""Shipped game data (installed as the package ``coreai.data.assets``; read through ``coreai.paths.shipped``)."""
