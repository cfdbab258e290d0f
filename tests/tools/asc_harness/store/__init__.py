"""Registry and evidence: ``capabilities.yaml`` and its schema, evidence records (write, read, validate,
retain), the status rules and the CLIs that sync and check the registry against the evidence; also the
static reading of kernel files and the shared command-line options. Imports only ``common``."""
