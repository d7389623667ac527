"""Adapters from events to the wire shapes clients expect (Chat Completions today)."""
from symphony.adapt import chat

__all__ = ["chat"]
