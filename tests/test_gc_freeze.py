"""Survivors of a full collection are frozen; a thaw lets dead cycles among them go."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from prometheus_client import generate_latest

from app import gc_freeze
from app.gc_freeze import FreezePolicy


class Node:
    """A cycle: only the cyclic collector can reclaim it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def no_other_gc_callbacks() -> Iterator[None]:
    """Each test sees only its own policy: an app still running elsewhere in the test
    process (a live server being torn down) must not freeze or count for it."""
    others = list(gc.callbacks)
    gc.callbacks.clear()
    gc.unfreeze()
    yield
    gc.callbacks[:] = others


@pytest.fixture
def policy() -> Iterator[FreezePolicy]:
    policy = FreezePolicy()
    policy.install()
    yield policy
    while policy.installed:
        policy.uninstall()


def dead_cycle_after_a_full_collection() -> weakref.ref[Node]:
    """A cycle alive during a full collection, dead right after it."""
    node = Node()
    gc.collect()
    return weakref.ref(node)


def test_a_full_collection_freezes_its_survivors(policy: FreezePolicy) -> None:
    gc.collect()
    assert gc.get_freeze_count() > 0 and policy.pauses.count[2] >= 1


def test_a_dead_cycle_among_frozen_objects_waits_for_the_thaw(policy: FreezePolicy) -> None:
    ghost = dead_cycle_after_a_full_collection()
    gc.collect()
    assert ghost() is not None  # frozen: not scanned
    policy.thaw()
    gc.collect()
    assert ghost() is None


def test_without_the_policy_a_dead_cycle_goes_at_the_next_collection() -> None:
    ghost = dead_cycle_after_a_full_collection()
    gc.collect()
    assert ghost() is None


def test_counting_only_freezes_nothing() -> None:
    policy = FreezePolicy()
    policy.install(freeze=False)
    try:
        ghost = dead_cycle_after_a_full_collection()
        gc.collect()
        assert ghost() is None and policy.pauses.count[2] >= 2
    finally:
        policy.uninstall(freeze=False)


def test_uninstalling_the_last_user_unfreezes_everything(policy: FreezePolicy) -> None:
    policy.install()  # a second app in the same process
    gc.collect()
    policy.uninstall()
    assert gc.get_freeze_count() > 0 and policy.installed
    policy.uninstall()
    assert gc.get_freeze_count() == 0 and policy._on_gc not in gc.callbacks


def test_pauses_are_exported_at_scrape_time() -> None:
    gc_freeze.POLICY.install()
    try:
        gc.collect()
        text = generate_latest().decode()
    finally:
        gc_freeze.POLICY.uninstall()
    values = dict(line.rsplit(" ", 1) for line in text.splitlines() if line[:1] != "#")
    assert float(values['skirmish_gc_pause_seconds_total{generation="2"}']) > 0
    assert "skirmish_gc_thaws_total" in values
