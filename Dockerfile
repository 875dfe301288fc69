# infermon: build with the Maven Wrapper on a JDK, run the shaded jar on a JRE.
#   docker build -t infermon .
#   docker run -p 9090:9090 -v infermon-data:/data infermon
# The runtime image is glibc-based (not Alpine): snappy-java's native library needs glibc.

FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -DskipTests -Dspotless.apply.skip=true -Dspotless.check.skip=true \
      -pl server -am package \
 && cp server/target/infermon.jar /infermon.jar

FROM eclipse-temurin:17-jre
RUN mkdir -p /etc/infermon /data && chown 65532:65532 /data
COPY --from=build /infermon.jar /opt/infermon/infermon.jar
USER 65532:65532
WORKDIR /data
EXPOSE 9090
VOLUME ["/data"]
# The same JVM defaults as the ./infermon launcher gives serve (docs/rationale.md, "Memory per series"), with
# the heap capped at three quarters of the container's memory limit.
ENV MALLOC_ARENA_MAX=2
ENTRYPOINT ["java", "-XX:+UseSerialGC", "-Xms32m", "-XX:NewRatio=8", "-XX:MinHeapFreeRatio=5", \
            "-XX:MaxHeapFreeRatio=10", "-XX:-ShrinkHeapInSteps", "-XX:-UsePerfData", "-XX:TrimNativeHeapInterval=10000", \
            "-XX:-TieredCompilation", "-XX:MaxRAMPercentage=75", \
            "-jar", "/opt/infermon/infermon.jar"]
CMD ["serve", "--config.file=/etc/infermon/infermon.yml", "--storage.tsdb.path=/data", \
     "--web.listen-address=0.0.0.0:9090"]
