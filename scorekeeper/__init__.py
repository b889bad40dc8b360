"""scorekeeper"""
