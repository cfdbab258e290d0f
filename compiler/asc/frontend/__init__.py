"""Python kernel -> tile IR."""
