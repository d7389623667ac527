"""Models with no markup of their own (SPEC §3 `plain`): every byte is content."""
from symphony.format import Emits, Format
from symphony.formats.family import ASSISTANT_TAG, CHATML, NO_THOUGHT, Family, Row, checkpoints

PLAIN = Format("plain").state("content", Emits.CONTENT)

TABLES = {"plain": PLAIN}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("plain",),
            "—",
            "TinyLlama"),
    ),
    checkpoints=(
        # plain: every byte is content
        checkpoints("tinyllama-1.1b-chat-v1.0", "plain", NO_THOUGHT, ASSISTANT_TAG, None,
                    "TinyLlama/TinyLlama-1.1B-Chat-v1.0"),
        # SPEC §3 pending, templates with no call or thought markup: Phi-4-multimodal has Phi-4-mini's
        # template; Qwen3Guard-Gen writes a verdict in ChatML with no tools and no thought; LLaVA-1.5
        # writes `USER: … ASSISTANT:` turns
        checkpoints("phi-4-multimodal-instruct", "plain", NO_THOUGHT, ASSISTANT_TAG, None,
                    "microsoft/Phi-4-multimodal-instruct"),
        checkpoints("qwen3guard-gen-0.6b", "plain", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen3Guard-Gen-0.6B", "Qwen/Qwen3Guard-Gen-4B", "Qwen/Qwen3Guard-Gen-8B"),
        checkpoints("llava-1.5-7b-hf", "plain", NO_THOUGHT, "ASSISTANT:", None,
                    "llava-hf/llava-1.5-7b-hf"),
    ),
)
