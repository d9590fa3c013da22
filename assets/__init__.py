"""Shipped game data (the package ``coreai.data.assets``; read through ``coreai.paths.shipped``)."""
