"""The incumbents imported as the peers README (shared/peers/README.md §2) says: SGLang through its
one stub (its package's `__init__` imports the whole server, which does not start on this
machine), its parsers then imported as its server imports them."""
import importlib.util
import sys
import types


def import_sglang():
    """SGLang's request, tool, function-call and reasoning parser types (ImportError without SGLang)."""
    if "sglang" not in sys.modules or not hasattr(sys.modules["sglang"], "__path__"):
        spec = importlib.util.find_spec("sglang")
        if spec is None:
            raise ImportError("sglang is not installed")
        pkg = types.ModuleType("sglang")   # the one stub (README §2)
        pkg.__path__ = list(spec.submodule_search_locations)
        sys.modules["sglang"] = pkg
    from sglang.srt.entrypoints.openai.protocol import ChatCompletionRequest, Tool
    from sglang.srt.function_call.function_call_parser import FunctionCallParser
    from sglang.srt.parser.reasoning_parser import ReasoningParser
    return types.SimpleNamespace(ChatCompletionRequest=ChatCompletionRequest, Tool=Tool,
                                 FunctionCallParser=FunctionCallParser, ReasoningParser=ReasoningParser)
