"""The rules core: pure Python, no Discord, database, images or asyncio; frozen values in, values
out (``legal_actions``, ``apply``), randomness passed in."""
