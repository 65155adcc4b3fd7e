-- Key holders and locked rooms (issue 31). Spec 000 §4 lets key holders into every room without
-- its access code; a room's creator may turn that off, so that everyone, key holders included,
-- needs the code (or a grant earned with it). Fixed at creation; false keeps the spec's rule.
ALTER TABLE rooms ADD COLUMN code_required_for_key_holders boolean NOT NULL DEFAULT false;
