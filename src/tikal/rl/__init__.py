"""Tikal for reinforcement learning: PettingZoo and Gymnasium environments.

Needs the ``rl`` extra (``pip install 'tikal[rl]'``); ``import tikal`` alone never loads
numpy, gymnasium or pettingzoo.  Start with :func:`env` (PettingZoo AEC, every seat an
agent) or :class:`TikalGymEnv` (one seat learns, bots play the others); docs/rl.md
describes the action ids, the observation and the rewards.
"""

from __future__ import annotations

from .actions import KINDS, ActionTable, action_table, max_score
from .aec import env, raw_env
from .gym import TikalGymEnv
from .observe import Encoder, Layout, layout
from .window import DEMO_RADIUS, window

__all__ = [
    "DEMO_RADIUS", "KINDS", "ActionTable", "Encoder", "Layout", "TikalGymEnv", "action_table",
    "env", "layout", "max_score", "raw_env", "window",
]
