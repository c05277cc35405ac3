"""The debugger's panels: one small widget per job, each showing reactive state."""
