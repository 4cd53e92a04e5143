"""The rules core: pure Python game engines (no Discord, no database, no images, no asyncio)."""
