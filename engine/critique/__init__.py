"""Mutation testing of assertions: does an assertion fail when its evidence is broken?"""
