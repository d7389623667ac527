"""Adapters from events to the wire shapes clients expect (Chat Completions, Anthropic Messages)."""
from symphony.adapt import chat, messages

__all__ = ["chat", "messages"]
