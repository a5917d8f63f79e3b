"""What the recipes call: datasets from trajectories, SFT / expert iteration / DPO(+NLL) on TRL.

recipes/sft.py, recipes/expert_iteration.py and recipes/dpo.py are the doors; the training step of
each is the short function in sft.py / dpo.py here, built directly on TRL's trainers.
"""
