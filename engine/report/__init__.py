"""grading.json, ground_truth.json and the terminal report."""
