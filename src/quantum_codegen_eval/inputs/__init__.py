"""Other tools' output files as predictions: every reader returns the same :class:`Sample` s.

``read_input(path, "auto")`` tells the format from the content (:func:`detect_format`): our own
JSONL / JSON (:mod:`..predictions`), lm-eval ``--log_samples`` files (:mod:`.lm_eval`), OpenAI
Batch API output files (:mod:`.openai_batch`) and inspect_ai logs (:mod:`.inspect_log`). A
request the other tool reports as failed is *missing* (listed, never judged), not a wrong answer.
See docs/input-formats.md.
"""

from ._read import FORMATS, InputFormatError, Inputs, detect_format, read_input

__all__ = ["FORMATS", "InputFormatError", "Inputs", "detect_format", "read_input"]
