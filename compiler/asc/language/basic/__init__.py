"""``asc.language.basic``: pyasc's v1 instructions, where upstream code imports them from. Each name is
``asc``'s; a name of upstream's API this engine does not implement imports, and fails when used, at the
user's line, as ``asc.<name>`` does."""


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    import asc
    from ..v1.names import UPSTREAM_NAMES, not_supported
    if name in UPSTREAM_NAMES:
        def unsupported(*args, **kwargs):
            raise not_supported(f"asc.{name}")
        unsupported.__name__ = name
        return unsupported
    return getattr(asc, name)
