"""Synthesis with the user's model: seed snippets → synthesis prompts → the user's ``generate``
→ verified, deduplicated, uncontaminated instruction–code pairs in the PennySynth schema.

>>> report = synthesize(my_generate, "pennysynth-corpus/", out="synth", n=1000)  # doctest: +SKIP
>>> report["rejected"]  # doctest: +SKIP
"""

from ._checks import REASONS
from ._prompt import parse_answer, synthesis_prompt
from ._run import DEFAULT_AGAINST, SynthesisInterrupted, SynthesisRequest, requests, synthesize
from ._seeds import Seed, archive_seeds, corpus_seeds, qhack_seeds

__all__ = ["DEFAULT_AGAINST", "REASONS", "Seed", "SynthesisInterrupted", "SynthesisRequest",
           "archive_seeds", "corpus_seeds", "parse_answer", "qhack_seeds", "requests",
           "synthesis_prompt", "synthesize"]
