import { ImageResponse } from "next/og";

// The home-screen icon: app/icon.svg's mark (three transcript lines) as a PNG, drawn at build time.
export const size = { width: 180, height: 180 };
export const contentType = "image/png";

const bar = (width: number, color: string) => <div style={{ width, height: 17, borderRadius: 9, background: color }} />;

export default function AppleIcon() {
  return new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        background: "#1c1917",
        display: "flex",
        flexDirection: "column",
        justifyContent: "center",
        gap: 17,
        paddingLeft: 40,
      }}
    >
      {bar(100, "#fafaf9")}
      {bar(78, "#fafaf9")}
      {bar(56, "#38bdf8")}
    </div>,
    size,
  );
}
