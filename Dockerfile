# Builds the release bot and runs it as the entrypoint: `docker run -i mctsbot`
# talks the engine protocol on stdin/stdout like the competition server expects.
FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY arena ./arena
# The tools package is a workspace member (it must be there), but the image needs only
# the bot and the arena.
COPY tune ./tune
RUN cargo build --release --locked -p mctsbot -p arena

FROM debian:bookworm-slim
COPY --from=build /src/target/release/mctsbot /usr/local/bin/mctsbot
COPY --from=build /src/target/release/arena /usr/local/bin/arena
ENTRYPOINT ["/usr/local/bin/mctsbot"]
