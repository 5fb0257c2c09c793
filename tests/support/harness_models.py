"""Fixed models for the harness tests: each answers a prompt from a table ``prompt ->
completion`` (anything else gets ``"no code"``). lm-eval and inspect_ai are imported on use."""

from __future__ import annotations

NO_ANSWER = "no code"


def fixed_lm(answers: dict[str, str]):
    """An lm-eval ``LM`` (what its model backends are) answering generation requests."""
    from lm_eval.api.model import LM

    class FixedLM(LM):
        def generate_until(self, requests, disable_tqdm: bool = False):
            return [answers.get(r.arguments[0], NO_ANSWER) for r in requests]

        def loglikelihood(self, requests, disable_tqdm: bool = False):
            raise NotImplementedError

        def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
            raise NotImplementedError

    return FixedLM()


def mockllm(answers: dict[str, str], fail: tuple[str, ...] = ()):
    """inspect's ``mockllm/model`` answering from the table (token usage set: mockllm would
    otherwise count tokens with a tokenizer it downloads); a prompt in ``fail`` raises, as a
    failing provider does."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    def answer(messages, tools, tool_choice, config):
        if messages[-1].text in fail:
            raise RuntimeError("the provider failed")
        out = ModelOutput.from_content(model="mockllm/model",
                                       content=answers.get(messages[-1].text, NO_ANSWER))
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    return get_model("mockllm/model", custom_outputs=answer)
