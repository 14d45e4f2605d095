"""The catalogue of mutant engines: each the reference engine with ONE realistic rule bug.

A mutant is data: a name, the clause it breaks, what the bug is, and the
mutation, a text patch of one file: an exact snippet of a spec file
(`spec/NAME.baloot`) replaced by another, or, for a bug of the runtime rather
than of the rules, of the hand-written `runtime.py`. A snippet must occur
exactly once: when the spec changes under a mutant, building it fails loudly
(`MutationError`) instead of quietly building the reference engine again.
"""

from __future__ import annotations

from dataclasses import dataclass

RUNTIME_FILES = ("runtime.py", "notation.py", "plain.py", "runtime_support.py", "__init__.py")


@dataclass(frozen=True)
class Mutant:
    name: str  # a Python identifier: the mutant's package is `baloot_mutant_NAME`
    clause: str  # the clause the bug breaks
    description: str
    file: str  # `cards.baloot` (a spec file) or `runtime.py` (a runtime file)
    old: str  # the exact snippet replaced, found exactly once
    new: str
    # Why no case can kill it, when the bug cannot change what an engine answers:
    # such a mutant is run and shown, but its survival is no missing case.
    equivalent: str | None = None
    # Readings the mutated rule is read under, as (variant, reading): a case that leaves
    # the variant open holds under every reading of it (`baloot conform pins`), so it is
    # run on the mutant under this one, where the bug can show.
    pins: tuple[tuple[str, str], ...] = ()

    @property
    def is_runtime(self) -> bool:
        return self.file in RUNTIME_FILES


_RUNTIME_APPLY = "        self.state = _apply_action(readings, state, record)\n"
_RUNTIME_APPLY_LEAKY = """\
        try:
            self.state = _apply_action(readings, state, record)
        except IllegalAction:
            # the bug: a refused card leaves the hand all the same
            if record.kind == definitions.ActionKind.PLAY_CARD and self.current_player is not None:
                seat = self.current_player
                hands = [list(h) for h in self.state.hands]
                if record.cards and record.cards[0] in hands[seat]:
                    from dataclasses import replace
                    hands[seat].remove(record.cards[0])
                    self.state = replace(self.state, hands=hands)
            raise
"""

MUTANTS: tuple[Mutant, ...] = (
    # ---- cards ------------------------------------------------------------------------
    Mutant(
        "trump_nine_over_jack",
        "SETUP.6",
        "The hokum suit ranked 9 J A 10 ...: the 9 beats the jack.",
        "cards.baloot",
        ": Rank = jack > nine > ace > ten > king > queen > eight > seven",
        ": Rank = nine > jack > ace > ten > king > queen > eight > seven",
    ),
    Mutant(
        "plain_ten_below_king",
        "SETUP.7",
        "Non-trump suits ranked A K 10 Q ...: the 10 below the king, as in most Western games.",
        "cards.baloot",
        ": Rank = ace > ten > king > queen > jack > nine > eight > seven",
        ": Rank = ace > king > ten > queen > jack > nine > eight > seven",
    ),
    Mutant(
        "trump_jack_worth_2",
        "SCORE.4",
        "The trump jack counted at its sun value, 2, instead of 20.",
        "cards.baloot",
        "  jack: 20, nine: 14,",
        "  jack: 2, nine: 14,",
    ),
    Mutant(
        "trump_nine_worth_0",
        "SCORE.4",
        "The trump 9 counted at its sun value, 0, instead of 14.",
        "cards.baloot",
        "  jack: 20, nine: 14,",
        "  jack: 20, nine: 0,",
    ),
    # ---- bidding ------------------------------------------------------------------------
    Mutant(
        "ashkal_first_bidder",
        "BID.6",
        "Ashkal offered to every bidder, the first and second included.",
        "bidding.baloot",
        "bidding_position(game.dealer, seat) + 1 >= 3",
        "bidding_position(game.dealer, seat) + 1 >= 1",
    ),
    Mutant(
        "second_session_face_up_trump",
        "BID.8",
        "In the second session the hokum bidder may name the face-up card's suit as trump.",
        "bidding.baloot",
        "return [hokum_action(s) for s in Suit if s != game.face_up.suit] + [action_of(bid_sun)]",
        "return [hokum_action(s) for s in Suit] + [action_of(bid_sun)]",
    ),
    Mutant(
        "hokum_bidder_cannot_switch",
        "BID.4",
        "After everyone passes on a first-session hokum bid, the bidder may not switch to sun.",
        "bidding.baloot",
        "if game.session == 1 { return [action_of(bid_hokum), action_of(bid_sun)] }",
        "if game.session == 1 { return [action_of(bid_hokum)] }",
    ),
    Mutant(
        "redeal_skipped",
        "BID.9",
        "All pass in the second session too: the bidding goes round again on the same cards "
        "instead of a redeal.",
        "bidding.baloot",
        "  return redeal(game)\n}",
        "  return game with { asking = bidding_order(game.dealer) }\n}",
    ),
    Mutant(
        "no_second_session",
        "BID.7",
        "All four pass in the first session: the cards are dealt again at once, with no "
        "second session.",
        "bidding.baloot",
        "  if game.session == 1 { return game with { session = 2, asking ="
        " bidding_order(game.dealer) } }\n",
        "",
    ),
    Mutant(
        "ashkal_card_to_caller",
        "BID.6",
        "Ashkal treated as a plain sun bid: the face-up card goes to the caller, not the partner.",
        "bidding.baloot",
        "let taker = if by_ashkal then partner_of(caller) else caller",
        "let taker = caller",
    ),
    Mutant(
        "ashkal_pass_counts_across_sessions",
        "BID.6",
        "Under A25 not_after_pass, a pass of the first session still forbids ashkal in the "
        "second: the engine looks at every call of the round, not the session's.",
        "bidding.baloot",
        "let first = if game.session == 1 then 0 else player_count",
        "let first = 0",
        pins=(("ashkal_limits", "not_after_pass"),),
    ),
    Mutant(
        "ashkal_limit_on_the_ten",
        "BID.6",
        "Under A25 no_ace, the limit checks the wrong rank: ashkal is refused on a face-up "
        "ten and allowed on a face-up ace.",
        "bidding.baloot",
        "let ace_up = game.face_up.rank == ace",
        "let ace_up = game.face_up.rank == ten",
        pins=(("ashkal_limits", "no_ace"),),
    ),
    Mutant(
        "kawesh_with_a_ten",
        "BID.9",
        "Under A28 weak_hand_redeal, kawesh offered to a hand of 7s, 8s, 9s and 10s.",
        "bidding.baloot",
        "all([c.rank in [seven, eight, nine] for c in game.hands[seat]])",
        "all([c.rank in [seven, eight, nine, ten] for c in game.hands[seat]])",
        pins=(("kawesh", "weak_hand_redeal"),),
    ),
    Mutant(
        "kawesh_passes_the_deal_on",
        "BID.9",
        "Under A28 weak_hand_redeal, the next dealer deals again after a kawesh, as after two "
        "rounds of passes under A20 next_dealer.",
        "bidding.baloot",
        "stage = dealt_again, next_dealer_seat = game.dealer }",
        "stage = dealt_again, next_dealer_seat = next_seat(game.dealer) }",
        pins=(("kawesh", "weak_hand_redeal"),),
    ),
    # ---- raises ------------------------------------------------------------------------
    Mutant(
        "double_order_counts_from_the_dealer",
        "RAISE.1",
        "Under A26 dealer_right_first, the bidding order counted from the dealer instead of "
        "the dealer's right: the dealer is asked first to double when it is an opponent.",
        "raises.baloot",
        "if bidding_position(dealer, right) < bidding_position(dealer, left)",
        "if bidding_position((dealer + 3) % player_count, right)"
        " < bidding_position((dealer + 3) % player_count, left)",
        pins=(("double_order", "dealer_right_first"),),
    ),
    Mutant(
        "sun_gate_inclusive",
        "RAISE.3",
        "The sun raise gate at 100 inclusive: 100 against 100 opens it.",
        "raises.baloot",
        "gate_strict_all, gate_strict_no_gahwa, gate_strict_double_only { return own >"
        " sun_raise_gate and theirs < sun_raise_gate }",
        "gate_strict_all, gate_strict_no_gahwa, gate_strict_double_only { return own >="
        " sun_raise_gate and theirs <= sun_raise_gate }",
    ),
    Mutant(
        "sun_raises_ungated",
        "RAISE.3",
        "Raises offered in sun whatever the scores, as in hokum.",
        "raises.baloot",
        "  if contract.kind == hokum { return true }\n  return sun_gate_open(totals,"
        " team_of(contract.bidder))",
        "  return true",
    ),
    Mutant(
        "locked_round_ignored",
        "RAISE.2",
        "A doubled or quadrupled round is never locked: trumps may be led freely.",
        "raises.baloot",
        "double_and_four { return game.level in [doubled, quadrupled, gahwa_declared] }",
        "double_and_four { return false }",
    ),
    Mutant(
        "locked_on_triple",
        "RAISE.2",
        "The lock applied to tripled rounds too.",
        "raises.baloot",
        "double_and_four { return game.level in [doubled, quadrupled, gahwa_declared] }",
        "double_and_four { return game.level in [doubled, tripled, quadrupled, gahwa_declared] }",
    ),
    Mutant(
        "one_opponent_doubles",
        "RAISE.1",
        "Only the first opponent of the bid winner is asked to double.",
        "raises.baloot",
        "bidder_right { return [right, left] }",
        "bidder_right { return [right] }",
    ),
    Mutant(
        "triple_multiplies_by_4",
        "RAISE.1",
        "A triple multiplies the points by 4.",
        "raises.baloot",
        "no_raise: 1, doubled: 2, tripled: 3,",
        "no_raise: 1, doubled: 2, tripled: 4,",
    ),
    Mutant(
        "projects_capped_at_triple",
        "RAISE.1",
        "Under A12 points_and_projects_capped, the projects are capped at the triple's x3 "
        "instead of the double's x2: tripled in full under the triple, tripled only under "
        "the four.",
        "scoring.baloot",
        "caps them: the double's 2.\" = 2",
        "caps them: the double's 2.\" = 3",
        pins=(("multipliers", "points_and_projects_capped"),),
    ),
    Mutant(
        "gahwa_keeps_the_closed_double",
        "RAISE.2",
        "Under A10 doubler_chooses_bidder_opens, a closed double stays locked through the "
        "bid winner's triple and gahwa.",
        "raises.baloot",
        "    doubler_chooses_bidder_opens { return game.level in [doubled, quadrupled] and "
        "game.closed }",
        "    doubler_chooses_bidder_opens { return game.level != no_raise and game.closed }",
        pins=(("locked_round", "doubler_chooses_bidder_opens"),),
    ),
    Mutant(
        "gahwa_keeps_the_last_call",
        "RAISE.2",
        "Under A10 each_raiser_chooses, gahwa keeps the four's call: after a closed four the "
        "round stays locked through gahwa, which is always open.",
        "raises.baloot",
        "    each_raiser_chooses { return game.level in [doubled, tripled, quadrupled] and "
        "game.closed }",
        "    each_raiser_chooses { return game.level != no_raise and game.closed }",
        pins=(("locked_round", "each_raiser_chooses"),),
    ),
    Mutant(
        "only_the_double_call_holds",
        "RAISE.2",
        "Under A10 each_raiser_chooses, the triple and the four are called closed or open, but "
        "the engine keeps the double's call: a closed triple after an open double leaves the "
        "round open, an open four after a closed double leaves it locked.",
        "raises.baloot",
        "closed = if action.lock != none then action.lock == closed_double else game.closed",
        "closed = if game.level == no_raise then action.lock == closed_double else game.closed",
        pins=(("locked_round", "each_raiser_chooses"),),
    ),
    # ---- play -----------------------------------------------------------------------------
    Mutant(
        "follow_suit_not_enforced",
        "PLAY.2",
        "Any card of the hand may be played: following suit is not enforced.",
        "play.baloot",
        "  let following = [c for c in hand if c.suit == led]\n",
        "  let following = hand\n",
    ),
    Mutant(
        "over_trump_on_a_trump_lead_always",
        "PLAY.2",
        "Under A23 any_trump, a player following a hokum lead must still beat the trumps in "
        "the trick when able.",
        "play.baloot",
        "    any_trump { return following }",
        "    any_trump { return over_trump_choices(game, following) }",
        pins=(("trump_lead", "any_trump"),),
    ),
    Mutant(
        "over_trump_lead_any_trump_will_do",
        "PLAY.2",
        "Under A23 must_overtrump, a follower of a hokum lead may play a lower trump while "
        "holding a higher one.",
        "play.baloot",
        "    must_overtrump { return over_trump_choices(game, following) }",
        "    must_overtrump { return following }",
        pins=(("trump_lead", "must_overtrump"),),
    ),
    Mutant(
        "over_trump_lead_even_the_partner",
        "PLAY.2",
        "Under A23 must_overtrump_opponent, a follower of a hokum lead must beat the partner's "
        "winning trump too.",
        "play.baloot",
        "      if partner_winning(game, to_play(game)) { return following }\n",
        "",
        pins=(("trump_lead", "must_overtrump_opponent"),),
    ),
    Mutant(
        "over_trump_the_partner",
        "PLAY.2",
        "Under A15 must_trump, a player void in the led suit must beat every trump in the "
        "trick even when only the partner has trumped.",
        "play.baloot",
        " and team_of(p.seat) != team_of(seat)]",
        "]",
    ),
    Mutant(
        "led_suit_is_last_card",
        "PLAY.2",
        "The suit to follow taken from the last card played to the trick, not the first.",
        "play.baloot",
        "  return trick[0].card.suit\n",
        "  return trick[len(trick) - 1].card.suit\n",
    ),
    Mutant(
        "trick_to_first_trump",
        "PLAY.3",
        "The trick goes to the first hokum card played rather than the highest.",
        "play.baloot",
        "    let top = max([trump_rank_order[p.card.rank] for p in trumps])\n"
        "    return [p.seat for p in trumps if trump_rank_order[p.card.rank] == top][0]",
        "    return trumps[0].seat",
    ),
    Mutant(
        "trick_ignores_led_suit",
        "PLAY.3",
        "Without trumps, the trick goes to the highest card of any suit, not of the led suit.",
        "play.baloot",
        "  let followers = [p for p in plays if p.card.suit == led]",
        "  let followers = plays",
    ),
    Mutant(
        "dealer_right_leads",
        "PLAY.1",
        "The player on the dealer's right leads the first trick, not the bid winner.",
        "play.baloot",
        "    bid_winner { return game.contract.bidder }",
        "    bid_winner { return next_seat(game.dealer) }",
    ),
    Mutant(
        "next_seat_leads_next_trick",
        "PLAY.4",
        "The next trick is led by the player after the last leader, not by the trick's winner.",
        "play.baloot",
        "    leader = winner\n",
        "    leader = next_seat(game.leader)\n",
    ),
    # ---- projects ----------------------------------------------------------------------
    Mutant(
        "projects_after_first_trick",
        "PROJ.1",
        "Projects may be declared in any trick, at the player's first card of it.",
        "projects.baloot",
        "  return len(game.tricks) == 0 and not any([p.seat == seat for p in game.trick])",
        "  return not any([p.seat == seat for p in game.trick])",
    ),
    Mutant(
        "three_projects_per_player",
        "PROJ.2",
        "A player may declare three projects.",
        "projects.baloot",
        '"Projects a player may declare (baloot aside)." = 2',
        '"Projects a player may declare (baloot aside)." = 3',
        equivalent="a project needs three cards at least and no card counts twice (PROJ.8), "
        "so eight cards never hold a third project after two: the limit never binds",
    ),
    Mutant(
        "one_project_per_player",
        "PROJ.2",
        "A player may declare one project only.",
        "projects.baloot",
        '"Projects a player may declare (baloot aside)." = 2',
        '"Projects a player may declare (baloot aside)." = 1',
    ),
    Mutant(
        "card_in_two_projects",
        "PROJ.8",
        "A card may count towards two projects of a player.",
        "projects.baloot",
        "  return [c for c in game.hands[seat] if c not in taken]",
        "  return game.hands[seat]",
    ),
    Mutant(
        "sequences_in_rank_order",
        "PROJ.3",
        "Sequences read in the trick rank order (so 10 K Q is no sira, J 9 A of trumps is).",
        "projects.baloot",
        "    natural { return natural_rank_order[card.rank] }",
        "    natural { return trick_strength(card, trump) }",
    ),
    Mutant(
        "four_aces_400_in_hokum",
        "PROJ.6",
        "Four aces declared as four hundred in hokum too.",
        "projects.baloot",
        "      hundred { return hundred }",
        "      hundred { return four_hundred }",
    ),
    Mutant(
        "four_jacks_no_project",
        "PROJ.5",
        "Four jacks are no project (the 'four tens, queens, queens or kings' of a garbled "
        "translation).",
        "projects.baloot",
        "if rank in [ten, jack, queen, king] { return hundred }",
        "if rank in [ten, queen, king] { return hundred }",
    ),
    Mutant(
        "baloot_in_sun",
        "PROJ.7",
        "Baloot scored in sun for a king and queen of one suit played by one player.",
        "projects.baloot",
        "  if not is_trump(card, trump) or card.rank not in [king, queen] { return game }",
        "  if (trump != none and card.suit != trump) or card.rank not in [king, queen] { return"
        " game }",
    ),
    Mutant(
        "baloot_on_one_card",
        "PROJ.7",
        "Baloot scored when one of the hokum king and queen is played, not both.",
        "projects.baloot",
        "  if not played_by(game, seat, other) or not baloot_counts(game, seat, pair) { return"
        " game }",
        "  if not baloot_counts(game, seat, pair) { return game }",
    ),
    Mutant(
        "sira_cancels_baloot",
        "PROJ.8",
        "Under A18 hundred_cancels, any declared project holding the hokum king or queen "
        "cancels baloot, a sira or fifty too.",
        "projects.baloot",
        "  if kind != hundred or not any([c in cards for c in pair]) { return false }",
        "  if not any([c in cards for c in pair]) { return false }\n  if kind != hundred"
        " { return true }",
        pins=(("baloot_overlap", "hundred_cancels"),),
    ),
    Mutant(
        "sun_sira_worth_2",
        "SCORE.5",
        "A sira scored at its hokum value, 2, in sun too.",
        "projects.baloot",
        "  sira: 4, fifty: 10, hundred: 20,",
        "  sira: 2, fifty: 10, hundred: 20,",
    ),
    Mutant(
        "hokum_fifty_worth_3",
        "SCORE.6",
        "The hokum fifty scored 3, misreading the page's '30'.",
        "projects.baloot",
        "  sira: 2, fifty: 5, hundred: 10,",
        "  sira: 2, fifty: 3, hundred: 10,",
    ),
    # ---- scoring ---------------------------------------------------------------------------
    Mutant(
        "no_last_trick_bonus",
        "SCORE.2",
        "The last trick is worth no extra bunts.",
        "scoring.baloot",
        '"Extra bunts for winning the last trick." = 10',
        '"Extra bunts for winning the last trick." = 0',
    ),
    Mutant(
        "last_trick_bonus_to_first_trick",
        "SCORE.2",
        "The 10 extra bunts go to the winner of the first trick, not the last.",
        "scoring.baloot",
        "  return team_of(game.tricks[len(game.tricks) - 1].winner)",
        "  return team_of(game.tricks[0].winner)",
    ),
    Mutant(
        "hokum_half_rounds_up",
        "SCORE.8",
        "Hokum conversion rounds an exact .5 up (25 bunts give 3).",
        "scoring.baloot",
        "  if bunts % 10 > 5 { return bunts // 10 + 1 }",
        "  if bunts % 10 >= 5 { return bunts // 10 + 1 }",
    ),
    Mutant(
        "sun_no_five_exception",
        "SCORE.7",
        "Sun conversion rounds a figure ending in 5 up like any other (25 gives 6).",
        "scoring.baloot",
        "  if bunts % 10 == 5 { return bunts * 2 // 10 }\n",
        "",
    ),
    Mutant(
        "success_margin_inclusive",
        "SCORE.9",
        "Success judged with >= instead of >: a margin of exactly 8 (hokum) or 13 (sun) succeeds.",
        "scoring.baloot",
        "margin_points { return points[bidder_team] - points[other] > margin }",
        "margin_points { return points[bidder_team] - points[other] >= margin }",
    ),
    Mutant(
        "app_tie_ignores_the_double",
        "SCORE.9",
        "Under A4 more_points_app_ties, a tie in points in a raised hokum round is judged as in "
        "an unraised one, by the bunts, instead of being lost by the doubler's team.",
        "scoring.baloot",
        "        if raised { return doubler_team != bidder_team }\n",
        "",
        pins=(("bidder_success", "more_points_app_ties"),),
    ),
    Mutant(
        "app_sun_tie_fails",
        "SCORE.9",
        "Under A4 more_points_app_ties, a sun tie in points and in bunts fails the bidder "
        "instead of being split.",
        "scoring.baloot",
        "        if mode == sun { return bunts[bidder_team] >= bunts[other] }",
        "        if mode == sun { return bunts[bidder_team] > bunts[other] }",
        pins=(("bidder_success", "more_points_app_ties"),),
    ),
    Mutant(
        "failure_keeps_bidder_points",
        "SCORE.10",
        "When the bidder fails, the bidding team still adds its own points.",
        "scoring.baloot",
        "    else failure_points(mode, projects, baloots, game.multiplier, bidder_team)",
        "    else [(if t == bidder_team then converted[t] else "
        "failure_points(mode, projects, baloots, game.multiplier, bidder_team)[t]) for t in"
        " teams()]",
    ),
    Mutant(
        "hokum_failure_26",
        "SCORE.10",
        "A failed hokum bid gives the other team 26, the sun figure.",
        "scoring.baloot",
        '"What the other team takes when a hokum bidder fails." = 16',
        '"What the other team takes when a hokum bidder fails." = 26',
    ),
    Mutant(
        "kaboot_ignores_face_up_ace",
        "SCORE.11",
        "Kaboot always 44, even when the face-up card bid on was an ace.",
        "scoring.baloot",
        "      return if game.face_up.rank == ace then kaboot_ace_points else kaboot_points",
        "      return kaboot_points",
    ),
    Mutant(
        "kaboot_swept_team_keeps_projects",
        "SCORE.11",
        "Under A9 sun_44_hokum_25, the team that won no trick still scores its own projects.",
        "scoring.baloot",
        "let own = [(if t == team then projects[t] else 0) for t in teams()]",
        "let own = projects",
        pins=(("kaboot", "sun_44_hokum_25"),),
    ),
    Mutant(
        "kaboot_raised_after_all",
        "SCORE.11",
        "Under A9 sun_44_hokum_25_projects_unraised, a raise multiplies the kaboot and its "
        "projects all the same.",
        "scoring.baloot",
        "      return points_on_top(game.contract.kind, base, own, own_baloot, 1, bidder_team)",
        "      return points_on_top(game.contract.kind, base, own, own_baloot, multiplier, "
        "bidder_team)",
        pins=(("kaboot", "sun_44_hokum_25_projects_unraised"),),
    ),
    Mutant(
        "reverse_kaboot_without_the_ace",
        "SCORE.11",
        "Under A27 sun_dealer_right_ace, the reverse kaboot's 88 without its ace: any sweep "
        "of a sun bid winner at the dealer's right scores 88.",
        "scoring.baloot",
        "and bid_winner_held_an_ace(game) and bid_winner_at_dealer_right(game)",
        "and bid_winner_at_dealer_right(game)",
        pins=(("reverse_kaboot", "sun_dealer_right_ace"),),
    ),
    Mutant(
        "reverse_kaboot_any_bidder_seat",
        "SCORE.11",
        "Under A27 sun_dealer_right_ace, the reverse kaboot's 88 wherever the bid winner "
        "sits: the dealer's right is not checked.",
        "scoring.baloot",
        "and bid_winner_held_an_ace(game) and bid_winner_at_dealer_right(game)",
        "and bid_winner_held_an_ace(game)",
        pins=(("reverse_kaboot", "sun_dealer_right_ace"),),
    ),
    Mutant(
        "raised_winner_leaves_the_loser_its_share",
        "RAISE.1",
        "Under A24 winner_takes_all, the other team keeps its own multiplied points in a "
        "raised round the bidding team won.",
        "scoring.baloot",
        "    winner_takes_all { return [(if t == bidder_team then points[0] + points[1] else 0) "
        "for t in teams()] }",
        "    winner_takes_all { return points }",
        pins=(("raised_share", "winner_takes_all"),),
    ),
    Mutant(
        "raised_winner_takes_the_loser_share",
        "RAISE.1",
        "Under A24 each_keeps_share, the bidding team takes the other team's multiplied "
        "points too in a raised round it won.",
        "scoring.baloot",
        "    each_keeps_share { return points }",
        "    each_keeps_share { return [(if t == bidder_team then points[0] + points[1] else 0)"
        " for t in teams()] }",
        pins=(("raised_share", "each_keeps_share"),),
    ),
    # ---- the game --------------------------------------------------------------------------
    Mutant(
        "game_ends_at_151",
        "END.1",
        "The game ends at 151 points.",
        "game.baloot",
        '"Points that win the game." = 152',
        '"Points that win the game." = 151',
    ),
    Mutant(
        "gahwa_ignored",
        "GAME.2",
        "Winning a gahwa round does not win the game.",
        "game.baloot",
        "  if level == gahwa_declared and gahwa is round_decides_game { return round_winner }\n",
        "",
    ),
    # ---- the runtime ------------------------------------------------------------------------
    Mutant(
        "refused_card_leaves_hand",
        "PLAY.2",
        "A runtime bug: a refused card is removed from the hand all the same (the state "
        "changes after an illegal action).",
        "runtime.py",
        _RUNTIME_APPLY,
        _RUNTIME_APPLY_LEAKY,
    ),
)


def by_name() -> dict[str, Mutant]:
    return {m.name: m for m in MUTANTS}
