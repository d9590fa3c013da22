"""The shipped prompt library (installed as the package ``coreai.data.prompts``; read through
``coreai.paths.shipped``)."""
