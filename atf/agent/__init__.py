"""The tool loop and the Trajectory record it produces."""
