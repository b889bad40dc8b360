"""Fan Tan table companion: the `fantan` command ties the stages together."""

__version__ = "0.1.0"
