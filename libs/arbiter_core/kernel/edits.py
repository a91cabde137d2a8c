"""The edits `evolve` makes to a state it owns: records are frozen, so a change replaces
the record (`records.replacer`, a fast `dataclasses.replace`); zone moves keep the zone
lists in order (CR 400.7: a moved object is a new object with a new id)."""

from __future__ import annotations

from arbiter_core.cards.model import TokenSpec
from arbiter_core.kernel.records import replacer
from arbiter_core.kernel.state import GameState, Marker, Obj, Player, StackItem, Zone


def remove_from_zone(s: GameState, o: Obj) -> None:
    if o.zone == "battlefield":
        s.battlefield.remove(o.id)
    elif o.zone == "stack":
        pass  # the stack item is removed by its own event
    else:
        s.zone_for_update(o.owner, o.zone).remove(o.id)


def put(s: GameState, o: Obj) -> None:
    s.objects[o.id] = o
    if o.zone == "battlefield":
        s.battlefield.append(o.id)
    elif o.zone == "library":
        s.zone_for_update(o.owner, "library").insert(0, o.id)
    elif o.zone != "stack":
        s.zone_for_update(o.owner, o.zone).append(o.id)


def move(s: GameState, oid: int, new_id: int, zone: Zone, controller: str | None) -> None:
    o = s.objects.pop(oid)
    remove_from_zone(s, o)
    face_down = o.face_down and _stays_face_down(o.zone, zone)
    s.timestamp += 1
    put(
        s,
        Obj(
            id=new_id,
            card=o.card,
            name=o.printed or o.name,  # 400.7: a new object is no longer a copy
            owner=o.owner,
            controller=controller or o.owner,
            zone=zone,
            token=o.token if o.printed is None else o.own_token,
            sick=zone == "battlefield",
            timestamp=s.timestamp,
            default_controller=controller or o.owner,
            face_down=face_down,
            manifested=face_down and o.manifested,
            spell_copy=o.spell_copy,
        ),
    )
    s.next_id = max(s.next_id, new_id + 1)


def _stays_face_down(from_zone: Zone, to_zone: Zone) -> bool:
    """A card turned face down just before it is cast or put onto the battlefield stays
    face down as it moves there (708.3, 708.4; manifest, 701.40a), and so does a
    face-down spell resolving (702.37c); a face-down permanent or spell that moves
    anywhere else is a new object, face up: revealed as it leaves (708.9)."""
    return to_zone in ("stack", "battlefield") and from_zone != "battlefield"


# `dataclasses.replace` for the most frequently replaced records (records.py)
replace_marker = replacer(Marker)
replace_player = replacer(Player)
replace_obj = replacer(Obj)


def create_token(s: GameState, oid: int, owner: str, token: TokenSpec) -> None:
    """A new token object `oid` on the battlefield under its owner (111.1, 110.2), with
    its own card number and timestamp (613.7e); the applier then adds what its event
    says (a copy, 707.2) and the "as it enters" effects (614.12)."""
    s.timestamp += 1
    s.objects[oid] = Obj(id=oid, card=s.next_card, name=token.name, owner=owner,
                         controller=owner, zone="battlefield", token=token, sick=True,
                         timestamp=s.timestamp, default_controller=owner)
    s.next_card += 1
    s.battlefield.append(oid)
    s.next_id = max(s.next_id, oid + 1)


def shuffled(s: GameState, player: str, zone: Zone, order: list[int]) -> None:
    """A player's zone in the order a seeded shuffle recorded (CR 701.24; a library, or a
    planar or scheme deck, 103.3a); one random draw of the game's generator consumed."""
    s.zones[(player, zone)] = list(order)
    s.rng_counter += 1


def set_marker(s: GameState, number: int, **changes: object) -> None:
    s.markers[number] = replace_marker(s.markers[number], **changes)


def set_player(s: GameState, name: str, **changes: object) -> None:
    s.players[name] = replace_player(s.players[name], **changes)


def set_obj(s: GameState, oid: int, **changes: object) -> None:
    s.objects[oid] = replace_obj(s.objects[oid], **changes)


def change_life(s: GameState, player: str, delta: int) -> None:
    """CR 119.3; with a shared life total the result applies to the team (810.9)."""
    who = s.team_of(player) if s.shared_life else [player]
    for p in who:
        set_player(s, p, life=s.players[p].life + delta)


def push(s: GameState, item: StackItem) -> None:
    s.stack_items[item.id] = item
    m = s.markers[item.marker]
    s.markers[item.marker] = replace_marker(m, stack=(*m.stack, item.id), passed=())
    s.next_id = max(s.next_id, item.id + 1)


def pop(s: GameState, item_id: int, marker: int) -> None:
    s.stack_items.pop(item_id, None)
    m = s.markers[marker]
    s.markers[marker] = replace_marker(m, stack=tuple(i for i in m.stack if i != item_id),
                                        passed=())
