"""Adapters from events to the wire shapes clients expect: Chat Completions (`chat`), the
Responses API (`responses`) and Anthropic Messages (`messages`), whole and streamed."""
from symphony.adapt import chat, messages, responses

__all__ = ["chat", "messages", "responses"]
