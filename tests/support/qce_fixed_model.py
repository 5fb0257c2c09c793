"""A test-only inspect_ai model provider (``qcefixed/model``): answers each prompt from the JSON
file ``$QCE_FIXED_ANSWERS`` (prompt -> completion; others get a text with no code), with token
usage set. For the ``inspect eval`` CLI test: inspect's own ``mockllm`` counts tokens with a
tokenizer it downloads, which an offline machine cannot do, and takes no custom outputs from the
command line. The test installs it as an inspect extension (a dist-info with an entry point)."""

import json
import os

from inspect_ai.model import ModelAPI, ModelOutput, ModelUsage, modelapi

NO_CODE = "I cannot write this program."


@modelapi(name="qcefixed")
class FixedAnswers(ModelAPI):
    def __init__(self, model_name, base_url=None, api_key=None, config=None, **model_args):
        super().__init__(model_name, base_url, api_key, [])
        with open(os.environ["QCE_FIXED_ANSWERS"]) as fh:
            self.answers = json.load(fh)

    async def generate(self, input, tools, tool_choice, config):
        out = ModelOutput.from_content(model="qcefixed",
                                       content=self.answers.get(input[-1].text, NO_CODE))
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out
