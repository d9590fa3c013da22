"""Counting a local model's tokens from any thread, without touching the model's owner thread.

``TokenCounter`` loads the GGUF file's vocabulary only (no weights, about 0.3 s) into its own ``Llama`` and
renders chat messages through the model's own chat template, so a count is what llama.cpp will evaluate for
the prompt (give or take the grammar note a forced tool adds, which callers pass in the messages).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from loguru import logger

_log = logger.bind(feature="llm", trace_id="tokens")
CHATML = (
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + "
    "'<|im_end|>' + '\n'}}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


class TokenCounter:
    """Thread-safe token counts for one GGUF model; loads lazily on the first count."""

    def __init__(self, model_path: str) -> None:
        self.model_path = model_path
        self._lock = threading.Lock()
        self._vocab: Any = None
        self._formatter: Any = None

    def _load(self) -> Any:
        if self._vocab is None:
            from llama_cpp import Llama
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            from coreai.llm.llama_quiet import keep_process_output

            keep_process_output()
            vocab = Llama(model_path=self.model_path, vocab_only=True, verbose=False)
            template = vocab.metadata.get("tokenizer.chat_template") or CHATML
            eos = vocab.detokenize([vocab.token_eos()]).decode("utf-8", "replace")
            bos = vocab.detokenize([vocab.token_bos()]).decode("utf-8", "replace")
            self._formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
            self._vocab = vocab
        return self._vocab

    def count(self, text: str) -> int:
        """Tokens of ``text`` alone (no chat markup)."""
        with self._lock:
            vocab = self._load()
            return len(vocab.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def count_messages(self, messages: Sequence[dict[str, Any]]) -> int:
        """Tokens of the prompt that ``messages`` become under the model's chat template."""
        with self._lock:
            vocab = self._load()
            prompt = self._formatter(messages=list(messages)).prompt
            return len(vocab.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))
