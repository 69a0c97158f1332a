# Builds the release bot and the arena; the bot is the entrypoint: `docker run -i mctsbot`
# talks the engine protocol on stdin/stdout like the competition server expects, and
# `docker run --rm --entrypoint arena mctsbot ...` referees games inside the image.
FROM rust:1-slim-bookworm AS build
WORKDIR /src
# The dependencies first, in a layer of their own: the three members' manifests and the
# lock with stub sources (cargo loads the whole workspace, tune included), so a change to
# the sources rebuilds only the workspace's own crates.
COPY Cargo.toml Cargo.lock ./
COPY arena/Cargo.toml arena/
COPY tune/Cargo.toml tune/
RUN mkdir -p src arena/src/bin tune/src/bin \
    && for f in src/main.rs arena/src/main.rs arena/src/bin/cg_bundle.rs tune/src/main.rs \
        tune/src/bin/uttt_selfplay.rs tune/src/bin/uttt_train.rs; do echo 'fn main() {}' >"$f"; done \
    && touch src/lib.rs arena/src/lib.rs tune/src/lib.rs \
    && cargo build --release --locked -p mctsbot -p arena
COPY src ./src
COPY arena ./arena
COPY tune ./tune
# COPY keeps the files' times, which may be older than the stubs' build: touched, the
# sources are newer and cargo rebuilds the workspace's crates instead of keeping the stubs.
RUN find src arena/src tune/src -type f -exec touch {} + \
    && cargo build --release --locked -p mctsbot -p arena

FROM debian:bookworm-slim
COPY --from=build /src/target/release/mctsbot /usr/local/bin/mctsbot
COPY --from=build /src/target/release/arena /usr/local/bin/arena
# `arena --map NAME` and `--openings NAME` look in protocol/ of the working folder.
WORKDIR /mctsbot
COPY protocol ./protocol
ENTRYPOINT ["/usr/local/bin/mctsbot"]
