"""Optional LLM grader for semantic assertions."""
