"""Adapters from events to the wire shapes clients expect (Chat Completions, the Responses API)."""
from symphony.adapt import chat, responses

__all__ = ["chat", "responses"]
