"""The rules core: pure Python, no Discord, database, images or asyncio.

Every game is values in, values out: frozen state and action dataclasses, ``legal_actions``
and ``apply``. Randomness comes in through a ``DiceSource`` or a ``random.Random``.
"""
