"""symphony inside the inference engines: `vllm` (vLLM's tool and reasoning parser interfaces)
and `sglang` (SGLang's function-call detector and reasoning detector). Neither engine is a
dependency; each module imports its engine when it is imported. `stream` is what both share: one
request's parser in the reasoning role and in the tool role.
"""
